import type { PreconditionSource } from "../../schemas/world-source.js";
import type { DraftTable, TableSet } from "./draft-tables.js";
import { balanceRefusal } from "./balance-sentences.js";
import { refusalShape } from "./refusal-shapes.js";
import { twoRows } from "./two-rows.js";
import { amountIn, contentWords, isIdentifier, nameScore, sameWord, snake, splitTop, words } from "./text.js";

/**
 * A refusal message of the manual → the precondition it states, when its sentence has one of the
 * patterns below; null otherwise (the message then becomes a review item, never a guess):
 *
 * - "No <thing> with this number." → `exists`
 * - "… only before 18:00." → `SELECT :now < <minute>` (minute 0 from the manual's conventions)
 * - "Only a validated payment …", "Only a payment in status received …" → `in_state` status
 * - "The beneficiary is not verified." → `in_state`, or `referenced` when the thing is another table
 * - "The invoice reference does not match …" → the parameter equals the (hidden) column of its name
 * - "Amount, currency and beneficiary must be exactly those of the payment." → parameters equal columns
 * - "… above EUR 1,000,000.00 …" on a column of the row → `limit` (allowed side read from "only")
 * - "A temporary limit must be higher than the standing daily limit." → `limit` parameter vs column
 */

export interface OpContext {
  table: DraftTable | null;
  params: ReadonlyArray<{ name: string; source?: string; type?: string }>;
  set: TableSet;
  minuteZero: number | null;
  /** What each function writes on its own row (from the first drafting pass): "Record … with `fn` first". */
  written?: ReadonlyMap<string, { table: string; columns: string[] }>;
  /** Other words for each table: the descriptions of parameters keyed to it (left-rows.ts). */
  aliases?: ReadonlyMap<string, string[][]>;
  /** `table.column` → the enumeration of the parameter a function fills it from. */
  enums?: ReadonlyMap<string, readonly string[]>;
}

export type Recognised = Omit<PreconditionSource, "id" | "message" | "rule"> & { idHint: string; hidden?: string };

const NEGATIVE = /^(?:un|non|in)[a-z]+ed$/;

/** The table a phrase names (`the beneficiary`, `bed request`), by its noun. */
export function tableNamed(set: TableSet, phrase: string): DraftTable | null {
  const ws = words(phrase);
  let best: DraftTable | null = null;
  let bestLen = 0;
  for (const t of set.tables) {
    const nw = t.noun.split("_");
    for (let i = 0; i + nw.length <= ws.length; i++) {
      if (nw.every((w, k) => sameWord(w, ws[i + k] as string)) && nw.length > bestLen) {
        best = t;
        bestLen = nw.length;
      }
    }
  }
  if (best) return best;
  // The last word of a thing's name alone ("quote" for fx_quote), when only one thing ends with it.
  const tail = set.tables.filter((t) => ws.some((w) => sameWord(w, t.noun.split("_").at(-1) as string)));
  return tail.length === 1 ? (tail[0] as DraftTable) : null;
}

/** The parameter whose name's words a phrase says ("the invoice reference" → invoice_ref). */
export function paramNamed(params: OpContext["params"], phrase: string): string | null {
  let best: string | null = null;
  let score = 0;
  for (const p of params) {
    const s = nameScore(p.name.replace(/_id$/, ""), phrase);
    const need = Math.min(p.name.replace(/_id$/, "").split("_").length, contentWords(phrase).length, 2);
    if (s.hits >= need && s.hits > 0 && s.hits > score) {
      best = p.name;
      score = s.hits;
    }
  }
  return best;
}

/** The column of `t` a phrase names best (all of its words, or the most of them), optionally numeric only. */
export function columnNamed(t: DraftTable, phrase: string, opts: { numeric?: boolean; unit?: string } = {}): string | null {
  let best: string | null = null;
  let score = 0;
  for (const c of t.columns) {
    if (c.name === t.key || (opts.numeric && c.type !== "real" && c.type !== "integer")) continue;
    const s = nameScore(c.name, phrase);
    const bonus = opts.unit && c.name.endsWith(`_${opts.unit.toLowerCase()}`) ? 0.5 : 0;
    const total = s.hits + bonus;
    if (s.hits > 0 && (s.all || s.hits >= 2) && total > score) {
      best = c.name;
      score = total;
    }
  }
  return best;
}

/** State values of `t` a message names, joined with "or"; also a participle right before the thing's noun. */
function statesNamed(t: DraftTable, message: string): string[] {
  // Only the words before the verb: in "Only a requested booking can be confirmed", "confirmed" is what the call does.
  const subject = message.split(/\b(?:can|may|is|are|must|will)\b/)[0] ?? message;
  const ws = words(subject);
  const found = t.statuses.filter((v) => {
    const vw = v.split("_");
    return ws.some((_w, i) => vw.every((x, k) => ws[i + k] === x));
  });
  if (found.length > 0) return found;
  const nounAt = ws.findIndex((w) => sameWord(w, t.noun.split("_")[0] as string));
  const before = nounAt > 0 ? ws[nounAt - 1] : undefined;
  if (before && /ed$/.test(before) && !NEGATIVE.test(before) && before !== "required") return [before];
  return [];
}

const GT = /(above|more than|over|exceeds?|exceeding|greater than|higher than)\s*$/i;
const LE = /(up to|at most|not more than|no more than|maximum of|up to and including)\s*$/i;
const LT = /(below|less than|under|lower than)\s*$/i;
const GE = /(at least|minimum of|not less than|no less than)\s*$/i;
const NEGATE = { above: "at_most", at_most: "above", below: "at_least", at_least: "below" } as const;
type Comparator = keyof typeof NEGATE;

function comparatorBefore(text: string): Comparator | null {
  if (LE.test(text)) return "at_most";
  if (GT.test(text)) return "above";
  if (GE.test(text)) return "at_least";
  if (LT.test(text)) return "below";
  return null;
}

/** Recognise the precondition a refusal message states (see the module comment). */
export function recogniseRefusal(message: string, ctx: OpContext, cause?: string): Recognised | null {
  const { set, table: t } = ctx;
  const none = /^No ([a-z][a-z -]*?) with this\b/i.exec(message);
  if (none) {
    const r = tableNamed(set, none[1] as string);
    if (!r) return null;
    const param = ctx.params.find((p) => p.name === r.key || set.tableOfKey(p.name) === r)?.name;
    if (!param) return null;
    return { exists: r.name, ...(param !== r.key ? { param } : {}), idHint: `${r.noun}_exists` };
  }
  const time = /\bonly (?:before|until|up to) (\d{1,2}):(\d{2})\b/i.exec(message) ?? /\b(?:accepted|given|booked|made|taken|possible) only before (\d{1,2}):(\d{2})\b/i.exec(message);
  if (time && ctx.minuteZero !== null) {
    const minute = Number(time[1]) * 60 + Number(time[2]) - ctx.minuteZero;
    return { sql: `SELECT :now < ${minute}`, idHint: `before_${time[1]}${time[2]}` };
  }
  const clock = clockTime(message, ctx.minuteZero) ?? twoRows(message, ctx);
  if (clock) return clock;
  if (!t) return null;
  const key = ctx.params.find((p) => p.name === t.key)?.name;
  if (!key) return null;
  // "(only pending_callback beneficiaries can be verified …)": a state value written as such, before the thing.
  const onlyValue = /\bonly ([a-z]+_[a-z0-9_]+) ([a-z]+)\b/.exec(message);
  if (onlyValue && sameWord(onlyValue[2] as string, t.noun.split("_").at(-1) as string)) {
    set.addStatus(t, onlyValue[1] as string);
    const col = set.stateColumn(t);
    return { in_state: t.name, where: { [col]: onlyValue[1] as string }, idHint: `${t.noun}_${onlyValue[1]}` };
  }
  // "Only a payment that has not been released …", "Only an unreleased payment …": not in that state.
  // Nothing else said of the thing ("Only an unreleased payment due today …" says more: not recognised).
  const notYet = /^Only an? (?:[a-z]+ )?(?:[a-z]+ )?(?:that|which) (?:has|have) not been ([a-z]+) can be\b/i.exec(message)?.[1] ?? /^Only an? un([a-z]+ed) [a-z]+ can be\b/i.exec(message)?.[1];
  if (notYet && t.statuses.includes(notYet)) {
    const col = set.stateColumn(t);
    return { in_state: t.name, where: { [col]: { not: notYet } }, idHint: `not_${notYet}` };
  }
  const who = onlyWho(message, ctx, t);
  if (who !== undefined) return who;
  if (/^Only\b/.test(message)) {
    const explicit = /\bin status ([a-z_]+)/i.exec(message)?.[1];
    const states = explicit ? [explicit] : statesNamed(t, message);
    if (states.length > 0) {
      for (const s of states) set.addStatus(t, s);
      const col = set.stateColumn(t);
      return { in_state: t.name, where: { [col]: states.length === 1 ? (states[0] as string) : states }, idHint: `${t.noun}_${states.join("_or_")}` };
    }
  }
  const isNot = /^The ([a-z][a-z -]*?) is (?:not|no longer) ([a-z_]+)\b/i.exec(message);
  if (isNot) {
    const r = tableNamed(set, isNot[1] as string);
    const value = isNot[2] as string;
    if (r && (r.statuses.includes(value) || (/ed$/.test(value) && !NEGATIVE.test(value)))) {
      set.addStatus(r, value);
      const col = set.stateColumn(r);
      if (r === t) return { in_state: t.name, where: { [col]: value }, idHint: `${t.noun}_${value}` };
      const own = keyParam(ctx, r);
      if (own) return { in_state: r.name, ...(own !== r.key ? { param: own } : {}), where: { [col]: value }, idHint: `${r.noun}_${value}` };
      const via = t.columns.find((c) => c.references === `${r.name}.${r.key}`)?.name;
      if (via) return { referenced: t.name, via, where: { [col]: value }, idHint: `${r.noun}_${value}` };
    }
  }
  const mismatch = /^(?:The |A )?(.+?) does not match\b/i.exec(message);
  if (mismatch) {
    const p = paramNamed(ctx.params.filter((x) => x.name !== key), mismatch[1] as string);
    if (p) return { in_state: t.name, where: { [p]: `:${p}` }, idHint: `${p}_matches`, hidden: p };
  }
  const exact = /^(.+?) must be exactly (?:those|that|the ones?|as) (?:of|on|in) (?:the )?/i.exec(message);
  if (exact) {
    const parts = splitTop(exact[1] as string, /,\s*|\s+and\s+/);
    const ps = parts.map((x) => paramNamed(ctx.params.filter((q) => q.name !== key), x));
    if (ps.length > 0 && ps.every((x) => x !== null)) {
      // "must be exactly those of the payment": the row holds them, under the parameters' names.
      for (const x of ps as string[]) set.addColumn(t, x);
      return { in_state: t.name, where: Object.fromEntries((ps as string[]).map((x) => [x, `:${x}`])), idHint: "terms_match" };
    }
  }
  const amount = amountIn(message);
  if (amount) {
    const stated = comparatorBefore(message.slice(0, amount.index));
    const allowedSide = /\bonly\b/i.test(message.slice(0, amount.index)) && !/\bnot\b/i.test(message.slice(0, amount.index));
    // An amount in a currency limits a column in that currency (`amount_eur`), else the money column the words name.
    const byUnit = t.columns.filter((c) => (c.type === "real" || c.type === "integer") && c.name.endsWith(`_${amount.unit.toLowerCase()}`));
    const money = { ...t, columns: t.columns.filter((c) => !/_(?:at|by)$/.test(c.name)) };
    const column = byUnit.length === 1 ? (byUnit[0]?.name as string) : columnNamed(money, message, { numeric: true, unit: amount.unit });
    if (stated && column) {
      const c = allowedSide ? stated : NEGATE[stated];
      return { limit: t.name, value: column, [c]: amount.value, idHint: `${column}_${c}_${amount.value}` };
    }
  }
  const cmp = /^(?:A |An |The )?(.+?) (?:must be|is) (higher|greater|more|lower|less) than (?:the )?(.+?)$/i.exec(message.replace(/\.$/, "")) ?? null;
  const exceeds = /^(?:A |An |The )?(.+?) exceeds (?:the )?(.+?)$/i.exec(message.replace(/[.;].*$/, ""));
  const m = cmp ?? (exceeds ? [exceeds[0], exceeds[1], "exceeds", exceeds[2]] : null);
  if (m) {
    const others = ctx.params.filter((x) => x.name !== key);
    // "the requested limit": the one parameter that is a number, when the words name none.
    const numeric = others.filter((x) => x.type === "number" || x.type === "integer");
    const p = paramNamed(others, m[1] as string) ?? (numeric.length === 1 ? (numeric[0]?.name as string) : null);
    const column = columnNamed(t, m[3] as string, { numeric: true }) ?? columnNamed(t, m[3] as string);
    if (p && column) {
      const c: Comparator = m[2] === "exceeds" ? "at_most" : /higher|greater|more/.test(m[2] as string) ? "above" : "below";
      return { limit: t.name, value: `:${p}`, [c]: column, idHint: `${p}_${c}_${column}` };
    }
  }
  return recogniseState(message, ctx, t, key) ?? balanceRefusal(firstClause(message), t, set, key) ?? refusalShape(message, ctx, t, cause);
}

/** The parameter holding the key of table `r`, if the call has one. */
function keyParam(ctx: OpContext, r: DraftTable): string | null {
  return ctx.params.find((p) => p.name === r.key || ctx.set.tableOfKey(p.name) === r)?.name ?? null;
}

/** The first clause of a message (before a `;` or the end of its first sentence): what is refused, not the advice after it. */
export function firstClause(message: string): string {
  return (message.split(/;\s*|\.\s+(?=[A-Z])/)[0] ?? message).replace(/\s*\([^)]*\)\s*\.?$/, "").replace(/\.$/, "");
}

/**
 * "Only a triaged patient who is still in the department can …": the state the clause names
 * (`in_department`) and the participle's time column (`triaged_at`) filled; null when the clause
 * names a state but the participle is neither; undefined when the message is not of this form.
 */
function onlyWho(message: string, ctx: OpContext, t: DraftTable): Recognised | null | undefined {
  const { set } = ctx;
  const who = /^Only an? (?:([a-z]+ed) )?([a-z]+) (?:who|that|which) (?:is|are) (?:still )?(.+?) (?:can|is|are|may)\b/i.exec(firstClause(message));
  if (!who) return undefined;
  const noun = tableNamed(set, who[2] as string);
  // "in the department" → in_department, "on the bench" → on_the_bench: the state value with or without its articles.
  const state = [snake(who[3] as string), snake(words(who[3] as string).filter((w) => !["the", "a", "an"].includes(w)).join(" "))].find((v) => t.statuses.includes(v));
  if (!(noun === t || (noun && noun === set.customer && t.owner)) || state === undefined) return undefined;
  const where: Record<string, string | { not: null }> = { [set.stateColumn(t)]: state };
  const part = who[1];
  if (part && (t.statuses.includes(part) || !set.column(t, `${part}_at`))) return null;
  if (part) where[`${part}_at`] = { not: null };
  return { in_state: t.name, where, idHint: `${part ? `${part}_` : ""}${state}` };
}

/** "The 09:30 shift change has passed" → `:now < minute`; "… has not yet opened: it opens at 09:00" → `:now >= minute`. */
function clockTime(message: string, minuteZero: number | null): Recognised | null {
  if (minuteZero === null) return null;
  const minute = (h: string, m: string) => Number(h) * 60 + Number(m) - minuteZero;
  const passed = /\b(\d{1,2}):(\d{2})\b[^.;:]*\bhas (?:passed|closed)\b/i.exec(firstClause(message));
  if (passed) return { sql: `SELECT :now < ${minute(passed[1] as string, passed[2] as string)}`, idHint: `before_${passed[1]}${passed[2]}` };
  const opens = /\bnot yet open(?:ed)?\b.*?\bopens at (\d{1,2}):(\d{2})\b/i.exec(message);
  if (opens) return { sql: `SELECT :now >= ${minute(opens[1] as string, opens[2] as string)}`, idHint: `from_${opens[1]}${opens[2]}` };
  return null;
}

/**
 * Conditions on the row's own columns and on rows of another table:
 *
 * - "A triage level needs a set of observations no older than 15 minutes" / "… recorded in the last
 *   60 minutes": a row of the table the message names, of this row, whose time column is that recent;
 * - "An escalation … is pending": the row's `escalation_due_by` is empty;
 * - "Record the … history before …", "needs the recorded … history": the row's `history_recorded` flag is 1;
 * - "There is no senior decision to discharge this patient": the column's values (a Field | Values
 *   table) that start with the verb;
 * - "The UTC accepts only patients on standard precautions": the column takes that value;
 * - "The senior decision … is not a transfer to this site": the value `transfer:SITE` with the site parameter;
 * - "The patient is already in a bed": the row's key of that thing is empty;
 * - "The commodity code is not a line of the current tariff schedule": the parameter keys a row of
 *   that thing in that state;
 * - "A hold on the declaration is not closed": no row of that thing, of this row, in another state;
 * - "The patient already holds an approved bed request": no row of that thing, of this row, in that state;
 * - "The attendance is not open", "already has an open attendance": not in a state a function
 *   "closes" it in ("closes the attendance" and sets discharged);
 * - "The deferment account is suspended": the row of that thing (by the call's key) is not in that state.
 *
 * A message that joins a second condition ("… must be recorded and the patient must not …") is left alone.
 */
function recogniseState(message: string, ctx: OpContext, t: DraftTable, key: string): Recognised | null {
  const { set } = ctx;
  const clause = firstClause(message);
  if (/\band (?:the|a|an|it|they) [a-z]+ (?:must|is|are|has|have|meet|meets)\b|\band meets?\b|\band (?:must|is)\b/i.test(clause)) return null;
  // Recent rows of another table.
  const fresh = /\b([a-z]+) (?:no older than|(?:recorded |taken )?in the last|(?:recorded )?within the last) (\d+) minutes\b/i.exec(clause);
  if (fresh) {
    const r = tableNamed(set, fresh[1] as string);
    if (r && r !== t && set.column(r, t.key)) {
      const times = r.columns.filter((c) => /_at$/.test(c.name));
      const named = times.filter((c) => words(clause).some((w) => sameWord(w, c.name.replace(/_at$/, ""))));
      const col = times.length === 1 ? times[0] : named.length === 1 ? named[0] : undefined;
      if (col) return { sql: `SELECT EXISTS (SELECT 1 FROM ${r.name} WHERE ${t.key} = :${key} AND ${col.name} >= :now - ${fresh[2]})`, idHint: `${r.noun}_within_${fresh[2]}` };
    }
  }
  // Something pending: its due time is set.
  const pending = /^(?:An? |The )([a-z]+)\b[^;.]*? is (?:pending|outstanding)\b/i.exec(clause);
  if (pending) {
    const noun = (pending[1] as string).toLowerCase();
    const col = [`${noun}_due_by`, `${noun}_due_at`, `${noun}_due`].find((c) => set.column(t, c));
    if (col) return { in_state: t.name, where: { [col]: null }, idHint: `no_${noun}_pending` };
  }
  // A flag the row keeps for what has been recorded.
  if (/\brecord(?:ed)?\b/i.test(message)) {
    const flags = t.columns.filter((c) => /_recorded$/.test(c.name) && words(message).includes(c.name.replace(/_recorded$/, "").split("_").at(-1) as string));
    if (flags.length === 1) return { in_state: t.name, where: { [flags[0]?.name as string]: 1 }, idHint: flags[0]?.name as string };
  }
  // Values of a column a Field | Values table lists.
  for (const [k, values] of set.values) {
    const [tn, col] = k.split(".") as [string, string];
    if (tn !== t.name) continue;
    const colWords = col.split("_");
    const to = new RegExp(`\\bno (?:[a-z]+ )?${colWords.join(" ")} to ([a-z]+)\\b`, "i").exec(clause);
    if (to) {
      const hit = values.filter((v) => v.toLowerCase().split(/[-:]/)[0] === (to[1] as string).toLowerCase());
      if (hit.length > 0) return { in_state: t.name, where: { [col]: hit.length === 1 ? (hit[0] as string) : hit }, idHint: `${col}_${to[1]}` };
    }
    // "is not a transfer to this site": the value `transfer:SITE` with the call's site parameter in place of SITE.
    const toThis = /\bis not an? ([a-z]+) to this ([a-z]+)$/i.exec(clause);
    if (toThis) {
      const template = values.find((v) => new RegExp(`^${toThis[1]}:[A-Z]+$`, "i").test(v));
      const p = ctx.params.find((x) => x.name !== key && x.name.split("_").some((w) => sameWord(w, toThis[2] as string)))?.name;
      if (template && p) return { sql: `SELECT COUNT(*) = 1 FROM ${t.name} WHERE ${t.key} = :${key} AND ${col} = '${template.split(":")[0]}:' || :${p}`, idHint: `${col}_${toThis[1]}` };
    }
    if (/\bonly\b/i.test(clause)) {
      const hit = values.filter((v) => new RegExp(`\\b${v.replace(/_/g, " ")} ${colWords.join(" ")}\\b`, "i").test(clause));
      if (hit.length === 1) return { in_state: t.name, where: { [col]: hit[0] as string }, idHint: `${col}_${hit[0]}` };
    }
  }
  // "A hold on the declaration is not closed": no row of that thing, of this row, in another state.
  const other = /^An? ([a-z][a-z ]*?) (?:on|of|for) (?:the|this) ([a-z][a-z ]*?) is not ([a-z_]+)$/i.exec(clause);
  if (other) {
    const r = tableNamed(set, other[1] as string);
    const value = other[3] as string;
    if (r && r !== t && tableNamed(set, other[2] as string) === t && set.column(r, t.key) && (r.statuses.includes(value) || (/ed$/.test(value) && !NEGATIVE.test(value)))) {
      set.addStatus(r, value);
      return { sql: `SELECT NOT EXISTS (SELECT 1 FROM ${r.name} WHERE ${t.key} = :${key} AND ${set.stateColumn(r)} != '${value}')`, idHint: `no_${r.noun}_not_${value}` };
    }
  }
  // "The patient already holds an approved bed request": no row of that thing, of this row, in that state
  // ("an open attendance": in none of the states a function closes it in).
  const already = /\balready (?:has|holds|have|hold) an? ([a-z_]+) ([a-z][a-z ]*?)$/i.exec(clause);
  if (already) {
    const r = tableNamed(set, already[2] as string);
    const value = already[1] as string;
    const open = value === "open" && r && !r.statuses.includes("open") && (r.closed?.length ?? 0) > 0;
    if (r && r !== t && set.column(r, t.key) && (r.statuses.includes(value) || open)) {
      const col = set.stateColumn(r);
      const cond = open ? `${col} NOT IN (${(r.closed as string[]).map((v) => `'${v}'`).join(", ")})` : `${col} = '${value}'`;
      return { sql: `SELECT NOT EXISTS (SELECT 1 FROM ${r.name} WHERE ${t.key} = :${key} AND ${cond})`, idHint: `no_${value}_${r.noun}` };
    }
  }
  // "The attendance is not open": not in a state a function closes it in.
  const notOpen = /^The ([a-z][a-z ]*?) is (?:not|no longer) open$/i.exec(clause);
  if (notOpen && tableNamed(set, notOpen[1] as string) === t && !t.statuses.includes("open") && (t.closed?.length ?? 0) > 0) {
    const closed = t.closed as string[];
    return { in_state: t.name, where: { [set.stateColumn(t)]: { not: closed.length === 1 ? (closed[0] as string) : [...closed] } }, idHint: `${t.noun}_open` };
  }
  // "The commodity code is not a line of the current tariff schedule": the parameter is the key of a row of that thing in that state.
  const lineOf = /^The ([a-z][a-z ]*?) is not an? ([a-z]+) of the ([a-z_]+) ([a-z][a-z ]*?)$/i.exec(clause);
  if (lineOf) {
    const r = tableNamed(set, `${lineOf[4]} ${lineOf[2]}`) ?? tableNamed(set, lineOf[2] as string);
    const p = paramNamed(ctx.params, lineOf[1] as string);
    const value = lineOf[3] as string;
    if (r && p && (p === r.key || p.endsWith(`_${r.key}`)) && r.statuses.includes(value)) {
      return { in_state: r.name, ...(p !== r.key ? { param: p } : {}), where: { [set.stateColumn(r)]: value }, idHint: `${r.noun}_${value}` };
    }
  }
  // "The patient is already in a bed": the row holds no key of that thing yet.
  const inA = /\bis already in an? ([a-z][a-z ]*?)$/i.exec(clause);
  if (inA) {
    const r = tableNamed(set, inA[1] as string);
    if (r && r !== t && set.column(t, r.key)) return { in_state: t.name, where: { [r.key]: null }, idHint: `no_${r.noun}` };
  }
  // "The deferment account is suspended": that thing is not in that state.
  const is = /^The ([a-z][a-z -]*?) is ([a-z_]+)$/i.exec(clause);
  if (is && is[2] !== "not") {
    const r = tableNamed(set, is[1] as string);
    const value = is[2] as string;
    if (r && r.statuses.includes(value)) {
      const col = set.stateColumn(r);
      if (r === t) return { in_state: t.name, where: { [col]: { not: value } }, idHint: `${t.noun}_not_${value}` };
      const own = keyParam(ctx, r);
      if (own) return { in_state: r.name, ...(own !== r.key ? { param: own } : {}), where: { [col]: { not: value } }, idHint: `${r.noun}_not_${value}` };
    }
  }
  return null;
}

/** A precondition id from a message when the manual gives none: its first content words. */
export function idFromMessage(message: string): string {
  const id = snake(contentWords(message).slice(0, 4).join(" "));
  return isIdentifier(id) ? id : "condition";
}
