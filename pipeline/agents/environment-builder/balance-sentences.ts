import type { EffectSource } from "../../schemas/world-source.js";
import type { DraftTable, TableSet } from "./draft-tables.js";
import { columnNamed, tableNamed } from "./recognise-refusal.js";
import { sameWord, words } from "./text.js";

/**
 * Money moving between rows, in the words manuals use for it:
 *
 * - "Both debit the wallet", "credits the settlement wallet": the row of another table the
 *   call's row points at (by its reference column, the one the words name) loses / gains the row's
 *   amount on its balance column;
 * - "The refund would take the wallet below its minimum balance": refused unless that row's balance
 *   less the row's amount stays at or above the column "its …" names;
 * - "The payout would overdraw the wallet": refused unless it stays at or above zero.
 *
 * - "Internal transfer between two wallets" taking from_wallet_id, to_wallet_id and a number: the
 *   first wallet's balance loses the number, the second's gains it.
 *
 * Only when every piece is found: one reference column, one `…balance…` column of the other table,
 * one amount column of the row (`amount`, or `<qualifier>_amount`); null otherwise.
 */

const ARTICLES = new Set(["the", "a", "an", "its", "their"]);

/** The row of another table that row `t` points at, named by a phrase ("the source wallet", "the wallet"). */
export function referencedRow(phrase: string, t: DraftTable, set: TableSet): { r: DraftTable; via: string; qualifier: string[] } | null {
  const r = tableNamed(set, phrase);
  if (!r || r === t) return null;
  const refs = t.columns.filter((c) => c.references === `${r.name}.${r.key}`);
  const nounWords = r.noun.split("_");
  const qualifier = words(phrase).filter((w) => !ARTICLES.has(w) && !nounWords.some((n) => sameWord(n, w)));
  const named = qualifier.length > 0 ? refs.filter((c) => qualifier.every((q) => c.name.split("_").some((x) => sameWord(x, q)))) : refs;
  return named.length === 1 ? { r, via: (named[0] as { name: string }).name, qualifier } : null;
}

const numeric = (t: DraftTable) => t.columns.filter((c) => c.type === "real" || c.type === "integer");

function balanceOf(r: DraftTable): string | null {
  const cols = numeric(r).filter((c) => c.name.split("_").includes("balance"));
  // `balance` itself beside `minimum_balance`; else the one balance column.
  if (cols.some((c) => c.name === "balance")) return "balance";
  return cols.length === 1 ? (cols[0] as { name: string }).name : null;
}

function amountOf(t: DraftTable, qualifier: readonly string[]): string | null {
  const names = numeric(t).map((c) => c.name);
  const own = qualifier.map((q) => `${q}_amount`).find((n) => names.includes(n));
  return own ?? (names.includes("amount") ? "amount" : null);
}

/** "debits the source wallet", "credits the wallet": UPDATE of the referenced row's balance by the row's amount. */
export function balanceEffects(text: string, t: DraftTable, set: TableSet, key: string): EffectSource[] {
  const out: EffectSource[] = [];
  for (const m of text.matchAll(/\b(debit|credit)s? (the [a-z][a-z ]{0,40}?)(?=[,.;:]|\s+(?:and|with|by|to|from)\b)/gi)) {
    const ref = referencedRow(m[2] as string, t, set);
    const bal = ref ? balanceOf(ref.r) : null;
    const amt = ref ? amountOf(t, ref.qualifier) : null;
    if (!ref || !bal || !amt) continue;
    const sign = (m[1] as string).toLowerCase() === "debit" ? "-" : "+";
    const sql = `UPDATE ${ref.r.name} SET ${bal} = ${bal} ${sign} (SELECT ${amt} FROM ${t.name} WHERE ${t.key} = :${key}) WHERE ${ref.r.key} = (SELECT ${ref.via} FROM ${t.name} WHERE ${t.key} = :${key})`;
    if (!out.some((e) => e.sql === sql)) out.push({ sql });
  }
  return out;
}

/** "… would take the source wallet below its minimum balance", "… would overdraw the wallet": the referenced row's balance less the row's amount. */
export function balanceRefusal(clause: string, t: DraftTable, set: TableSet, key: string): { sql: string; idHint: string } | null {
  const below = /\bwould (?:take|bring|put) (the [a-z][a-z ]*?) below (?:its|the) ([a-z][a-z ]*?)$/i.exec(clause);
  const overdraw = /\bwould overdraw (the [a-z][a-z ]*?)$/i.exec(clause);
  const phrase = below?.[1] ?? overdraw?.[1];
  if (!phrase) return null;
  const ref = referencedRow(phrase, t, set);
  const bal = ref ? balanceOf(ref.r) : null;
  const amt = ref ? amountOf(t, ref.qualifier) : null;
  if (!ref || !bal || !amt) return null;
  const floor = below ? columnNamed({ ...ref.r, columns: numeric(ref.r).filter((c) => c.name !== bal) }, below[2] as string, { numeric: true }) : "0";
  if (!floor) return null;
  const bound = below ? `r.${floor}` : "0";
  return {
    sql: `SELECT COUNT(*) = 1 FROM ${t.name} x JOIN ${ref.r.name} r ON r.${ref.r.key} = x.${ref.via} WHERE x.${t.key} = :${key} AND r.${bal} - x.${amt} >= ${bound}`,
    idHint: below ? `${ref.r.noun}_above_${floor}` : `${ref.r.noun}_covered`,
  };
}

/** "… transfer between two wallets" with `from_<key>`, `to_<key>` and one number parameter: a debit and a credit of the balance. */
export function transferEffects(text: string, params: ReadonlyArray<{ name: string; type?: string }>, set: TableSet): EffectSource[] {
  if (!/\btransfer|\bbetween two\b/i.test(text)) return [];
  const from = params.find((p) => p.name.startsWith("from_") && set.tableOfKey(p.name));
  const to = params.find((p) => p.name.startsWith("to_") && set.tableOfKey(p.name));
  const r = from ? set.tableOfKey(from.name) : null;
  const numbers = params.filter((p) => p.type === "number" || p.type === "integer");
  const bal = r ? balanceOf(r) : null;
  if (!from || !to || !r || set.tableOfKey(to.name) !== r || numbers.length !== 1 || !bal) return [];
  const n = (numbers[0] as { name: string }).name;
  return [
    { sql: `UPDATE ${r.name} SET ${bal} = ${bal} - :${n} WHERE ${r.key} = :${from.name}` },
    { sql: `UPDATE ${r.name} SET ${bal} = ${bal} + :${n} WHERE ${r.key} = :${to.name}` },
  ];
}
