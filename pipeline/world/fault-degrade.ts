import { quote } from "../core/errors.js";
import { canonicalJson } from "../core/canonical-json.js";
import type { RandomStream } from "../core/random.js";
import { IMPLICIT_FAULTS, type ImplicitFault } from "./fault-plan.js";
import type { RowChange } from "./types.js";

type Row = Record<string, unknown>;

/** What a degradation may use besides the result itself. */
export interface DegradeContext {
  /** True results of earlier identical agent calls (same tool, same canonical arguments), oldest first. */
  earlier: ReadonlyArray<{ call: number; result: unknown }>;
  /** Row changes of this call and of earlier calls, newest first. */
  changes: readonly RowChange[];
  /** Stream of this call (picks the field to drop or empty). */
  rng: RandomStream;
}

export interface Degradation {
  /** The implicit type actually applied (may differ from the planned one, see `degrade`). */
  type: ImplicitFault;
  result: unknown;
  detail: string;
}

const isRow = (v: unknown): v is Row => v !== null && typeof v === "object" && !Array.isArray(v);

function same(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a ?? null) === canonicalJson(b ?? null);
  } catch {
    return false;
  }
}

/** The list of a result: the result itself, or its first list-valued property in key order. */
function listOf(result: unknown): { list: unknown[]; set: (l: unknown[]) => unknown } | null {
  if (Array.isArray(result)) return { list: result, set: (l) => l };
  if (!isRow(result)) return null;
  const key = Object.keys(result).sort().find((k) => Array.isArray(result[k]));
  if (key === undefined) return null;
  return { list: result[key] as unknown[], set: (l) => ({ ...result, [key]: l }) };
}

/** The rows of a result (objects of its list, or the result as one row); mutable references. */
function rowsOf(result: unknown): Row[] {
  const found = listOf(result);
  if (found) return found.list.filter(isRow);
  return isRow(result) ? [result] : [];
}

/** Fields worth degrading: never the first column (usually the key the caller asked for) unless it is the only one. */
function candidateFields(row: Row, filter: (v: unknown) => boolean = () => true): string[] {
  const keys = Object.keys(row);
  return (keys.length > 1 ? keys.slice(1) : keys).filter((k) => filter(row[k]));
}

// Each degrader works on a private deep copy and returns null when it cannot apply.
const DEGRADERS: Record<ImplicitFault, (result: unknown, ctx: DegradeContext) => { result: unknown; detail: string } | null> = {
  truncated_list(result) {
    const found = listOf(result);
    if (!found || found.list.length < 2) return null;
    const n = found.list.length;
    const keep = Math.ceil(n / 2);
    return { result: found.set(found.list.slice(0, keep)), detail: `kept ${keep} of ${n} rows` };
  },
  dropped_field(result, ctx) {
    const rows = rowsOf(result);
    const first = rows[0];
    if (!first) return null;
    const fields = candidateFields(first);
    if (fields.length === 0) return null;
    const field = ctx.rng.pick(fields);
    let count = 0;
    for (const r of rows) if (Object.hasOwn(r, field) && delete r[field]) count++;
    return { result, detail: `dropped field ${field} from ${count} row${count === 1 ? "" : "s"}` };
  },
  emptied_value(result, ctx) {
    const rows = rowsOf(result);
    const first = rows[0];
    if (!first) return null;
    const fields = candidateFields(first, (v) => v !== null && v !== "" && typeof v !== "object");
    if (fields.length === 0) return null;
    const field = ctx.rng.pick(fields);
    const shown = first[field];
    let count = 0;
    for (const r of rows) {
      if (r[field] === null || r[field] === "" || r[field] === undefined) continue;
      r[field] = typeof r[field] === "string" ? "" : null;
      count++;
    }
    return { result, detail: `emptied field ${field} in ${count} row${count === 1 ? "" : "s"} (${quote(shown)} → ${quote(first[field])})` };
  },
  stale_value(result, ctx) {
    for (const prior of [...ctx.earlier].reverse()) {
      if (!same(prior.result, result)) return { result: structuredClone(prior.result), detail: `returned the result of the identical agent call ${prior.call}` };
    }
    const rows = rowsOf(result);
    for (const change of ctx.changes) {
      const { before, after } = change;
      if (!before || !after) continue;
      for (const col of Object.keys(after).sort()) {
        if (same(before[col], after[col])) continue;
        const row = rows.find((r) => Object.hasOwn(r, col) && same(r[col], after[col]) && Object.values(r).some((v) => String(v) === String(change.key)));
        if (!row) continue;
        row[col] = structuredClone(before[col]);
        return { result, detail: `showed the earlier value of ${change.table}[${change.key}].${col}: ${quote(before[col])} instead of ${quote(after[col])}` };
      }
    }
    return null;
  },
};

/**
 * Degrades an executed call's result with the planned implicit fault. When it cannot apply
 * (truncating a non-list, a result without fields, no earlier value to go stale), the next implicit
 * type in the fixed cycle truncated_list → dropped_field → emptied_value → stale_value → … is tried.
 * Returns null when none applies (e.g. a null result): the fault is then spent without effect.
 */
export function degrade(planned: ImplicitFault, result: unknown, ctx: DegradeContext): Degradation | null {
  const start = IMPLICIT_FAULTS.indexOf(planned);
  for (let i = 0; i < IMPLICIT_FAULTS.length; i++) {
    const type = IMPLICIT_FAULTS[(start + i) % IMPLICIT_FAULTS.length] as ImplicitFault;
    const done = DEGRADERS[type](structuredClone(result), ctx);
    if (!done) continue;
    const detail = type === planned ? done.detail : `${planned} could not apply; ${type}: ${done.detail}`;
    return { type, result: done.result, detail };
  }
  return null;
}
