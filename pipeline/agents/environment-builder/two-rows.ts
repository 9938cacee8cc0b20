import { firstClause, tableNamed, type OpContext, type Recognised } from "./recognise-refusal.js";
import { sameWord } from "./text.js";

/**
 * A refusal about the two rows of one table a call takes (`from_wallet_id` and `to_wallet_id`):
 *
 * - "Both wallets must be open wallets of the client in different currencies."
 * - "Internal transfers are only possible between two different open wallets of the same client in
 *   the same currency."
 *
 * Each piece is a condition on both rows: the state before the noun, the owner (the call's owner
 * parameter, or the same for both), the column "in different / the same …" names (different or
 * equal), "two different" (not the same row). Null unless the sentence is exactly of this shape and
 * every piece is found.
 */
export function twoRows(message: string, ctx: OpContext): Recognised | null {
  const m = /^(?:Both ([a-z]+) must be|[A-Z][a-z -]*? (?:are|is) only possible between two)( different)? (?:([a-z]+) )?([a-z]+) of the (same )?([a-z]+) in (?:the )?(different|same) ([a-z]+)$/i.exec(firstClause(message));
  if (!m) return null;
  const { set } = ctx;
  const r = tableNamed(set, m[4] as string);
  if (!r || (m[1] && tableNamed(set, m[1]) !== r)) return null;
  const keyed = ctx.params.filter((p) => p.name === r.key || set.tableOfKey(p.name) === r).map((p) => p.name);
  if (keyed.length !== 2) return null;
  const [a, b] = keyed as [string, string];
  const conds = [`a.${r.key} = :${a}`];
  if (m[2]) conds.push(`a.${r.key} != b.${r.key}`);
  if (m[3]) {
    const state = r.columns.find((c) => c.name === "status")?.name ?? r.columns.filter((c) => c.name.endsWith("_status")).map((c) => c.name).find((_c, _i, all) => all.length === 1);
    if (!state) return null;
    const value = (m[3] as string).toLowerCase();
    set.addStatus(r, value);
    conds.push(`a.${state} = '${value}'`, `b.${state} = '${value}'`);
  }
  const owner = tableNamed(set, m[6] as string);
  const ownerCol = owner ? r.columns.find((c) => c.references === `${owner.name}.${owner.key}`)?.name : undefined;
  if (!owner || !ownerCol) return null;
  if (m[5]) conds.push(`a.${ownerCol} = b.${ownerCol}`);
  else {
    const p = ctx.params.find((x) => x.name === owner.key || set.tableOfKey(x.name) === owner)?.name;
    if (!p) return null;
    conds.push(`a.${ownerCol} = :${p}`, `b.${ownerCol} = :${p}`);
  }
  const col = r.columns.find((c) => c.name !== r.key && sameWord(c.name, m[8] as string))?.name;
  if (!col) return null;
  conds.push(`a.${col} ${(m[7] as string).toLowerCase() === "different" ? "!=" : "="} b.${col}`);
  return { sql: `SELECT COUNT(*) = 1 FROM ${r.name} a JOIN ${r.name} b ON b.${r.key} = :${b} WHERE ${conds.join(" AND ")}`, idHint: `${r.noun}_pair` };
}
