import { canonicalJson } from "../core/canonical-json.js";
import { sha256Hex } from "./canonical-order.js";

/**
 * What a trace keeps of a call's arguments and result. An argument over ARG_MAX_CHARS characters is
 * refused (the call errors with `invalid_argument` and nothing runs) and stored as a cut marker; a
 * result over RESULT_MAX_CHARS characters of JSON, or holding a list of more than RESULT_MAX_ITEMS
 * items, is stored as a cut marker (the caller still sees it whole). A marker keeps what identifies
 * the value: `{ "$cut": true, "length": N, "sha256": "…" }` — N characters of the string (or of the
 * value's JSON), sha256 of the string (or of its canonical JSON). A replay sends the marker back as
 * the argument, which is refused with the same message, so replays of such calls agree.
 */

export const ARG_MAX_CHARS = 10_000;
export const RESULT_MAX_CHARS = 100_000;
export const RESULT_MAX_ITEMS = 1000;

export interface CutMarker {
  $cut: true;
  length: number;
  sha256: string;
}

/** The marker of a value that is not stored whole. */
export function cutMarker(value: unknown): CutMarker {
  const text = typeof value === "string" ? value : canonicalJson(value);
  return { $cut: true, length: text.length, sha256: sha256Hex(text) };
}

function isCutMarker(v: unknown): v is CutMarker {
  return v !== null && typeof v === "object" && (v as { $cut?: unknown }).$cut === true && typeof (v as { length?: unknown }).length === "number";
}

/** Characters of an argument value: a string's length, or the length of its JSON; the marker's recorded length. */
function argLength(v: unknown): number {
  if (typeof v === "string") return v.length;
  if (v === null || typeof v !== "object") return 0;
  if (isCutMarker(v)) return Math.max(v.length, ARG_MAX_CHARS + 1);
  try {
    return JSON.stringify(v)?.length ?? 0;
  } catch {
    return ARG_MAX_CHARS + 1;
  }
}

export interface ArgBounds {
  /** The arguments as the trace stores them (the same object when nothing is too long). */
  args: Record<string, unknown>;
  /** The first argument over the bound, with its length. */
  tooLong?: { field: string; length: number };
}

/** Check every top-level argument against ARG_MAX_CHARS; the too-long ones are replaced by markers. */
export function boundArgs(args: Record<string, unknown>): ArgBounds {
  let out: Record<string, unknown> | undefined;
  let tooLong: ArgBounds["tooLong"];
  for (const k in args) {
    const v = args[k];
    if (typeof v !== "string" && (v === null || typeof v !== "object")) continue;
    const n = argLength(v);
    if (n <= ARG_MAX_CHARS) continue;
    const marker = isCutMarker(v) ? v : cutMarker(v);
    out ??= { ...args };
    out[k] = marker;
    tooLong ??= { field: k, length: marker.length };
  }
  return out ? { args: out, tooLong } : { args };
}

/**
 * True when a value may need cutting: an upper bound of its JSON length (a character escapes to at
 * most 6, a number prints in at most 24) over the budget, or a list over RESULT_MAX_ITEMS.
 */
function mayBeOversized(v: unknown, budget: { left: number }): boolean {
  if (typeof v === "string") return (budget.left -= 6 * v.length + 2) < 0;
  if (v === null || typeof v !== "object") return (budget.left -= 24) < 0;
  if (Array.isArray(v)) {
    if (v.length > RESULT_MAX_ITEMS) return true;
    for (const x of v) if (mayBeOversized(x, budget)) return true;
    return (budget.left -= 2) < 0;
  }
  for (const k in v) {
    budget.left -= 6 * k.length + 4;
    if (mayBeOversized((v as Record<string, unknown>)[k], budget)) return true;
  }
  return (budget.left -= 2) < 0;
}

/** The result as the trace stores it: itself, or a cut marker when it is too large. */
export function boundResult(result: unknown): unknown {
  if (result === null || result === undefined || (typeof result !== "object" && typeof result !== "string")) return result;
  if (!mayBeOversized(result, { left: RESULT_MAX_CHARS })) return result;
  // The walk gives an upper bound; the exact JSON length decides.
  const text = JSON.stringify(result) ?? "";
  if (text.length <= RESULT_MAX_CHARS && !hasLongList(result)) return result;
  return cutMarker(result);
}

function hasLongList(v: unknown): boolean {
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return v.length > RESULT_MAX_ITEMS || v.some(hasLongList);
  for (const k in v) if (hasLongList((v as Record<string, unknown>)[k])) return true;
  return false;
}
