import { quote } from "../../../pipeline/core/errors.js";
import type { RowTransition } from "../context.js";
import { sameValue } from "./values.js";

function changedColumns(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].sort().filter((c) => !sameValue(before[c], after[c]));
}

/** `balance 5000 → 4000, status "open" → "frozen"`, or `inserted` / `deleted` (at most 3 columns shown). */
export function describeRowChange(t: RowTransition): string {
  if (t.before === null) return "inserted";
  if (t.after === null) return "deleted";
  const before = t.before;
  const after = t.after;
  const cols = changedColumns(before, after);
  const shown = cols.slice(0, 3).map((c) => `${c} ${quote(before[c] ?? null)} → ${quote(after[c] ?? null)}`);
  return cols.length > 3 ? `${shown.join(", ")} and ${cols.length - 3} more` : shown.join(", ");
}

/** True when a transition actually altered the row (an update to the same values does not). */
export function altered(t: RowTransition): boolean {
  if (t.before === null || t.after === null) return t.before !== t.after;
  return changedColumns(t.before, t.after).length > 0;
}
