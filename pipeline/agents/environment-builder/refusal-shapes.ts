import type { DraftTable } from "./draft-tables.js";
import { firstClause, tableNamed, type OpContext, type Recognised } from "./recognise-refusal.js";
import { namesTable } from "./left-rows.js";
import { flagRefusal } from "./flag-refusals.js";
import { compoundRefusal } from "./compound-refusal.js";
import { sameWord, words } from "./text.js";

/**
 * Refusal sentences about a status column of the row or of the row it belongs to (the first clause
 * of the message, as recognise-refusal.ts cuts it, unless said otherwise):
 *
 * - "The order is not awaiting payment (already paid or cancelled)" (the whole message, or the
 *   message and its Cause cell "Already paid or cancelled"): not in the states listed (participles
 *   become states, as "is not verified" does);
 * - "No <action> while the <thing>'s <…> review is overdue": the thing's `<…>_status` column the
 *   words name is not that value (the thing is the call's row, or a row the call has the key of);
 * - "The order is held by fraud review": not in the one state that is that participle (`held`,
 *   `held_review`);
 * - "Log the inspection with log_inspection before …": the column that function writes on this row
 *   (its time column, or its only column) is filled;
 * - "Only a level 3 member who has not been assigned a locker can …": the number column the word
 *   names has that value, and the row's reference to that thing (named by its noun or by the
 *   descriptions of parameters keyed to it) is empty;
 * - "The voucher is not an issued, unexpired voucher for this order": see validFor;
 * - "The loyalty card is not held by the customer of this order": see heldByOwner;
 * - "The client's review is overdue or falls due before the 17:00 close": see dueBefore;
 * - flags and states the row can no longer leave: flag-refusals.ts; two joined conditions:
 *   compound-refusal.ts.
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

/** The one state of `r` that is the participle or starts with it (`held` → held_review). */
function stateOf(r: DraftTable, participle: string): string | null {
  const hits = r.statuses.filter((v) => v === participle || v.startsWith(`${participle}_`));
  return hits.length === 1 ? (hits[0] as string) : null;
}

export function refusalShape(message: string, ctx: OpContext, t: DraftTable, cause?: string): Recognised | null {
  const clause = firstClause(message);
  // "The order is not awaiting payment (already paid or cancelled)", or that message with the Cause "Already paid or cancelled": not in the states listed.
  const reason = /^already\b/i.test(cause ?? "") ? `${clause} (${(cause as string).replace(/\.$/, "")})` : message;
  const already = /^The ([a-z][a-z -]*?) (?:is|are) not [a-z][a-z -]*? \(already ([a-z]+(?:, [a-z]+)*,? or [a-z]+)\)/i.exec(reason);
  if (already) {
    const r = tableNamed(ctx.set, already[1] as string);
    const states = (already[2] as string).split(/,\s*(?:or\s+)?|\s+or\s+/).map((v) => v.trim().toLowerCase()).filter((v) => v.length > 0);
    const own = r === t ? t.key : r ? ctx.params.find((p) => p.name === r.key || ctx.set.tableOfKey(p.name) === r)?.name : undefined;
    // After "already" every word is a state the row is in ("paid", "cancelled").
    if (r && own && states.every((v) => v.length >= 3)) {
      for (const v of states) ctx.set.addStatus(r, v);
      const where = { [ctx.set.stateColumn(r)]: { not: states } };
      if (r === t) return { in_state: t.name, where, idHint: `${t.noun}_not_${states.join("_or_")}` };
      return { in_state: r.name, ...(own !== r.key ? { param: own } : {}), where, idHint: `${r.noun}_not_${states.join("_or_")}` };
    }
  }
  // "The order is held by fraud review": the row (or the row the call keys) is not in its held_… state.
  const heldBy = /^The ([a-z][a-z -]*?) is ([a-z]{3,}) (?:by|for|under|pending)\b[^;]*$/i.exec(clause);
  if (heldBy) {
    const r = tableNamed(ctx.set, heldBy[1] as string);
    const value = r ? stateOf(r, (heldBy[2] as string).toLowerCase()) : null;
    if (r && value) {
      const where = { [ctx.set.stateColumn(r)]: { not: value } };
      if (r === t) return { in_state: t.name, where, idHint: `not_${value}` };
      const own = ctx.params.find((p) => p.name === r.key || ctx.set.tableOfKey(p.name) === r)?.name;
      if (own) return { in_state: r.name, ...(own !== r.key ? { param: own } : {}), where, idHint: `not_${value}` };
    }
  }
  // "Log the inspection with log_inspection before …" / "… with `log_inspection` first": what that function writes on this row is there.
  const first = /^[A-Z][a-z]+ (?:the |a |an )?[a-z][a-z -]*? with `?([a-z][a-z0-9]*_[a-z0-9_]+)`? (?:before|first)\b/i.exec(clause);
  const w = first ? ctx.written?.get(first[1] as string) : undefined;
  if (w && w.table === t.name) {
    const times = w.columns.filter((c) => /_at$/.test(c));
    const col = times.length === 1 ? times[0] : w.columns.length === 1 ? w.columns[0] : undefined;
    if (col) return { in_state: t.name, where: { [col]: { not: null } }, idHint: `${col.replace(/_at$/, "")}` };
  }
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
  // "Only a level 3 member who has not been assigned a locker can …": the number column the word names, and no row of that thing yet.
  const numbered = /^Only an? ([a-z]+) (\d+) ([a-z]+)(?: (?:who|that|which) (?:has|have) not been (?:given|assigned|allocated) an? ([a-z][a-z -]*?))? (?:can|may|is|are)\b/i.exec(clause);
  const noun = numbered ? tableNamed(ctx.set, numbered[3] as string) : null;
  if (numbered && noun && (noun === t || (noun === ctx.set.customer && t.owner))) {
    const cols = t.columns.filter((c) => (c.type === "integer" || c.type === "real") && c.name.split("_").some((w) => sameWord(w, numbered[1] as string)));
    const refs = numbered[4] ? t.columns.filter((c) => ctx.set.tables.some((r) => r !== t && `${r.name}.${r.key}` === c.references && namesTable(numbered[4] as string, r, ctx.set, ctx.aliases ?? new Map()))) : [];
    if (cols.length === 1 && (!numbered[4] || refs.length === 1)) {
      const col = (cols[0] as { name: string }).name;
      const where: Record<string, number | null> = { [col]: Number(numbered[2]) };
      if (refs[0]) where[refs[0].name] = null;
      return { in_state: t.name, where, idHint: `${col}_${numbered[2]}${refs[0] ? `_no_${refs[0].name.replace(/_id$/, "")}` : ""}` };
    }
  }
  return validFor(clause, ctx, t) ?? heldByOwner(clause, ctx, t) ?? dueBefore(clause, ctx, t) ?? flagRefusal(message, ctx, t) ?? compoundRefusal(clause, ctx, t);
}

/** "The client's review is overdue or falls due before the 17:00 close": the row's `…review…due` time is neither past nor before that minute. */
function dueBefore(clause: string, ctx: OpContext, t: DraftTable): Recognised | null {
  const m = /^The ([a-z]+)['’]s ([a-z][a-z -]*?) is overdue or (?:falls|is|becomes) due before (?:the )?(\d{1,2}):(\d{2})\b/i.exec(clause);
  const key = ctx.params.find((p) => p.name === t.key)?.name;
  if (!m || ctx.minuteZero === null || !key) return null;
  const owner = tableNamed(ctx.set, m[1] as string);
  if (!(owner === t || (owner && owner === ctx.set.customer && t.owner))) return null;
  const ws = words(m[2] as string);
  const cols = t.columns.filter((c) => (c.type === "integer" || c.type === "real") && c.name.split("_").includes("due") && c.name.split("_").some((w) => w !== "due" && ws.some((x) => sameWord(x, w))));
  if (cols.length !== 1) return null;
  const col = (cols[0] as { name: string }).name;
  const minute = Number(m[3]) * 60 + Number(m[4]) - ctx.minuteZero;
  return { sql: `SELECT COUNT(*) = 1 FROM ${t.name} WHERE ${t.key} = :${key} AND ${col} >= :now AND ${col} >= ${minute}`, idHint: `${col}_after_${m[3]}${m[4]}` };
}

/**
 * "The loyalty card is not held by the customer of this order": the row of that thing the call keys
 * has, as its holder (its column referencing the owner's table, else its `holder` / `owner` column),
 * the owner of the call's row.
 */
function heldByOwner(clause: string, ctx: OpContext, t: DraftTable): Recognised | null {
  const m = /^The ([a-z][a-z -]*?) is not (?:held|owned) by the ([a-z]+) of this ([a-z]+)$/i.exec(clause);
  if (!m) return null;
  const r = tableNamed(ctx.set, m[1] as string);
  const owner = tableNamed(ctx.set, m[2] as string);
  if (!r || r === t || !owner || tableNamed(ctx.set, m[3] as string) !== t) return null;
  const rowOwner = t.columns.find((c) => c.references === `${owner.name}.${owner.key}`)?.name;
  const holder = r.columns.find((c) => c.references === `${owner.name}.${owner.key}`)?.name ?? r.columns.find((c) => c.name === "holder" || c.name === "owner")?.name;
  const param = ctx.params.find((p) => p.name === r.key || ctx.set.tableOfKey(p.name) === r)?.name;
  const key = ctx.params.find((p) => p.name === t.key)?.name;
  if (!rowOwner || !holder || !param || !key) return null;
  return { sql: `SELECT COUNT(*) = 1 FROM ${r.name} x JOIN ${t.name} y ON y.${rowOwner} = x.${holder} WHERE x.${r.key} = :${param} AND y.${t.key} = :${key}`, idHint: `${r.noun}_of_${owner.noun}` };
}

/**
 * "The voucher is not an issued, unexpired voucher for this order": the row of that thing the call
 * keys is in each state the words name, each "un…ed" word is a time column still ahead
 * (`unexpired` → expires_at > now), and it belongs to this row.
 */
function validFor(clause: string, ctx: OpContext, t: DraftTable): Recognised | null {
  const m = /^The ([a-z][a-z -]*?) is not an? ([a-z][a-z, -]*?) for this ([a-z]+)$/i.exec(clause);
  if (!m) return null;
  const r = tableNamed(ctx.set, m[1] as string);
  if (!r || r === t || !(tableNamed(ctx.set, m[3] as string) === t || (ctx.set.customer && tableNamed(ctx.set, m[3] as string) === ctx.set.customer && t.owner))) return null;
  const param = ctx.params.find((p) => p.name === r.key || ctx.set.tableOfKey(p.name) === r)?.name;
  const key = ctx.params.find((p) => p.name === t.key)?.name;
  const via = r.columns.find((c) => c.references === `${t.name}.${t.key}`)?.name;
  if (!param || !key || !via) return null;
  const nounWords = r.noun.split("_");
  const adjectives = words(m[2] as string).filter((w) => !nounWords.some((n) => sameWord(n, w)));
  const conds: string[] = [];
  for (const a of adjectives) {
    const un = /^un([a-z]+?)e?d$/.exec(a);
    const time = un ? [`${un[1]}es_at`, `${un[1]}s_at`, `${un[1]}_at`, `${un[1]}ed_at`].find((c) => r.columns.some((x) => x.name === c)) : undefined;
    if (r.statuses.includes(a)) conds.push(`${ctx.set.stateColumn(r)} = '${a}'`);
    else if (time) conds.push(`${time} > :now`);
    else return null;
  }
  if (conds.length === 0) return null;
  return { sql: `SELECT COUNT(*) = 1 FROM ${r.name} WHERE ${r.key} = :${param} AND ${conds.join(" AND ")} AND ${via} = :${key}`, idHint: `${r.noun}_valid` };
}

/**
 * "The order is not awaiting shipment" (Cause "Already shipped or cancelled"): the call does what the
 * row awaits, so it leaves the row in the listed state that shares the noun's stem (five letters or
 * more: security → secured). Null when none does.
 */
export function awaitedState(message: string, cause?: string): string | null {
  const noun = /\bis not awaiting (?:a |an |the )?([a-z]+)\b/i.exec(message)?.[1]?.toLowerCase();
  const list = /\balready ([a-z]+(?:, [a-z]+)*,? or [a-z]+)\b/i.exec(`${message} ${/^already\b/i.test(cause ?? "") ? cause : ""}`)?.[1];
  if (!noun || !list) return null;
  const common = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return i;
  };
  const hits = list.split(/,\s*(?:or\s+)?|\s+or\s+/).map((v) => v.trim().toLowerCase()).filter((v) => common(v, noun) >= 5);
  return hits.length === 1 ? (hits[0] as string) : null;
}
