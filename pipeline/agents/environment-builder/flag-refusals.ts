import type { DraftTable } from "./draft-tables.js";
import { columnNamed, firstClause, tableNamed, type OpContext, type Recognised } from "./recognise-refusal.js";
import { snake, words } from "./text.js";

/**
 * Refusals about a column that carries a flag (a value among a few, or nothing), and about a state
 * the row can no longer leave:
 *
 * - "The order has an open hold flag (fraud check or address query)": the flag is none of the
 *   values listed (they become the column's known values);
 * - "The order carries no open fraud check": the flag is that known value;
 * - "Only an unshipped order with a fraud check hit can be …": not in the state, and the flag is the
 *   known value whose words the phrase holds;
 * - "The goods have been shipped; the order can no longer be changed": the row is not in that state.
 */

/** Known values of the row's columns: `table.column` → values (Field | Values tables and the lists above). */
function valuesOf(ctx: OpContext, t: DraftTable): Array<{ column: string; values: string[] }> {
  return [...ctx.set.values].filter(([k]) => k.startsWith(`${t.name}.`)).map(([k, values]) => ({ column: k.slice(t.name.length + 1), values }));
}

export function flagRefusal(message: string, ctx: OpContext, t: DraftTable): Recognised | null {
  const key = ctx.params.find((p) => p.name === t.key)?.name;
  if (!key) return null;
  const clause = firstClause(message);
  const open = /^The ([a-z][a-z -]*?) has an? (?:open|active|pending|unresolved|outstanding) ([a-z][a-z -]*?) \(([a-z][a-z -]*?(?:, [a-z][a-z -]*?)*,? or [a-z][a-z -]*?)\)/i.exec(message);
  if (open && tableNamed(ctx.set, open[1] as string) === t) {
    const col = columnNamed(t, open[2] as string);
    const values = (open[3] as string).split(/,\s*(?:or\s+)?|\s+or\s+/).map((v) => snake(v)).filter((v) => v.length > 0);
    if (col && values.length >= 2) {
      ctx.set.values.set(`${t.name}.${col}`, [...new Set([...(ctx.set.values.get(`${t.name}.${col}`) ?? []), ...values])]);
      const list = values.map((v) => `'${v}'`).join(", ");
      return { sql: `SELECT COUNT(*) = 1 FROM ${t.name} WHERE ${t.key} = :${key} AND COALESCE(${col}, '') NOT IN (${list})`, idHint: `no_open_${col}` };
    }
  }
  const none = /^The ([a-z][a-z -]*?) (?:carries|has|holds) no (?:open |active |pending )?([a-z][a-z -]*?)$/i.exec(clause);
  if (none && tableNamed(ctx.set, none[1] as string) === t) {
    const value = snake(none[2] as string);
    const hits = valuesOf(ctx, t).filter((x) => x.values.includes(value));
    if (hits.length === 1) return { in_state: t.name, where: { [(hits[0] as { column: string }).column]: value }, idHint: value };
  }
  const withHit = /^Only an? (?:un([a-z]+ed) )?([a-z]+) with an? ([a-z][a-z -]*?) can be\b/i.exec(clause);
  if (withHit && tableNamed(ctx.set, withHit[2] as string) === t) {
    const ws = words(withHit[3] as string);
    const hits = valuesOf(ctx, t).flatMap((x) => x.values.filter((v) => v.split("_").every((w) => ws.includes(w))).map((v) => ({ column: x.column, value: v })));
    const not = withHit[1];
    if (hits.length === 1 && (!not || t.statuses.includes(not))) {
      const hit = hits[0] as { column: string; value: string };
      return { in_state: t.name, where: { ...(not ? { [ctx.set.stateColumn(t)]: { not } } : {}), [hit.column]: hit.value }, idHint: `${hit.value}${not ? `_not_${not}` : ""}` };
    }
  }
  const noLonger = /^The [a-z][a-z -]*? (?:has|have) been ([a-z]+); the ([a-z][a-z -]*?) can no longer be [a-z]+/i.exec(message);
  if (noLonger && tableNamed(ctx.set, noLonger[2] as string) === t && t.statuses.includes(noLonger[1] as string)) {
    return { in_state: t.name, where: { [ctx.set.stateColumn(t)]: { not: noLonger[1] as string } }, idHint: `not_${noLonger[1]}` };
  }
  return null;
}
