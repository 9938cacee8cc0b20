import type { DraftTable } from "./draft-tables.js";
import { tableNamed, type OpContext, type Recognised } from "./recognise-refusal.js";
import { sameWord, words } from "./text.js";

/**
 * Refusal sentences about a status column of the row or of the row it belongs to (the first clause
 * of the message, as recognise-refusal.ts cuts it):
 *
 * - "No <action> while the <thing>'s <…> review is overdue": the thing's `<…>_status` column the
 *   words name is not that value (the thing is the call's row, or a row the call has the key of).
 */

/** The `<x>_status` column of `r` whose words (before `_status`) the phrase all says. */
function statusColumnNamed(r: DraftTable, phrase: string): string | null {
  const ws = words(phrase);
  const hits = r.columns.filter((c) => {
    const m = /^([a-z0-9_]+)_status$/.exec(c.name);
    return m !== null && (m[1] as string).split("_").every((x) => ws.some((w) => sameWord(w, x)));
  });
  return hits.length === 1 ? (hits[0] as { name: string }).name : null;
}

export function refusalShape(clause: string, ctx: OpContext, t: DraftTable): Recognised | null {
  const whileIs = /^No [a-z][a-z -]*? while (?:the|this) ([a-z][a-z ]*?)['’]s ([a-z][a-z -]*?) (?:is|are) ([a-z_]+)$/i.exec(clause);
  if (whileIs) {
    const r = tableNamed(ctx.set, whileIs[1] as string);
    const col = r ? statusColumnNamed(r, whileIs[2] as string) : null;
    const value = (whileIs[3] as string).toLowerCase();
    if (r && col) {
      const where = { [col]: { not: value } };
      if (r === t) return { in_state: t.name, where, idHint: `${col}_not_${value}` };
      const own = ctx.params.find((p) => p.name === r.key || ctx.set.tableOfKey(p.name) === r)?.name;
      if (own) return { in_state: r.name, ...(own !== r.key ? { param: own } : {}), where, idHint: `${col}_not_${value}` };
    }
  }
  return null;
}
