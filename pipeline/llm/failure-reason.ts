import type { FoundryError } from "../core/errors.js";
import { FAILURE_CODES } from "./classify-error.js";

const KIND_OF_CODE = new Map(Object.entries(FAILURE_CODES).map(([kind, code]) => [code, kind]));
const MARK = "model failure";

/** Whether a FoundryError is a model call's failure (LLM_*), as opposed to a bug or bad input. */
export function isModelError(e: FoundryError): boolean {
  return e.code.startsWith("LLM_");
}

/**
 * The drop reason of an item lost to a model failure: `model failure (<class>) in stage S for
 * task T on provider:model: <message>`. Builds count and summarise drops by this form.
 */
export function modelFailureReason(e: FoundryError): string {
  if (!isModelError(e)) return `${e.code}: ${e.message}`;
  const v = (e.value ?? {}) as { model?: string; stage?: string; item?: string };
  const kind = KIND_OF_CODE.get(e.code) ?? (e.code === "LLM_AUTH" ? "auth" : "other");
  const where = [v.stage ? `in stage ${v.stage}` : null, v.item ? `for task ${v.item}` : null, v.model ? `on ${v.model}` : null].filter(Boolean).join(" ");
  return `${MARK} (${kind})${where ? ` ${where}` : ""}: ${e.message}`;
}

/** The error class of a drop reason made by modelFailureReason, or null for any other reason. */
export function modelFailureClass(reason: string | null | undefined): string | null {
  const m = /model failure \(([a-z_]+)\)/.exec(reason ?? "");
  return m ? (m[1] as string) : null;
}

/**
 * Rethrow a model failure as an error whose message is its drop reason (the per-item runner drops
 * the item with it, the other items go on); anything else is rethrown as it is.
 */
export function namedModelFailure(e: unknown): never {
  if (e instanceof Error && "code" in e && typeof (e as FoundryError).code === "string" && isModelError(e as FoundryError)) throw new Error(modelFailureReason(e as FoundryError));
  throw e;
}

/**
 * Summary of the items a build lost to model failures: one line per distinct cause (class and
 * message), with how many items it took. Empty when none was lost.
 */
export function modelFailureSummary(drops: ReadonlyArray<{ domain: string; item: string; reason: string | null }>): string[] {
  const lost = drops.filter((d) => modelFailureClass(d.reason) !== null);
  if (lost.length === 0) return [];
  const byCause = new Map<string, string[]>();
  for (const d of lost) {
    // The same failure of several tasks reads the same once the task id is taken out.
    const cause = (d.reason as string).replace(/^[a-z_]+: /, "").replace(/ for task \S+/, "").replace(/, item \S+/, "");
    byCause.set(cause, [...(byCause.get(cause) ?? []), `${d.domain}/${d.item}`]);
  }
  return [`${lost.length} item(s) dropped for model failures:`, ...[...byCause].map(([cause, items]) => `  ${items.length} × ${cause} (${items.join(", ")})`)];
}
