import type { PreconditionSource } from "../../schemas/world-source.js";
import type { DraftTable, TableSet } from "./draft-tables.js";
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
}

export type Recognised = Omit<PreconditionSource, "id" | "message" | "rule"> & { idHint: string; hidden?: string };

const NEGATIVE = /^(?:un|non|in)[a-z]+ed$/;

/** The table a phrase names (`the beneficiary`, `bed request`), by its noun. */
function tableNamed(set: TableSet, phrase: string): DraftTable | null {
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
export function recogniseRefusal(message: string, ctx: OpContext): Recognised | null {
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
  return null;
}

/** A precondition id from a message when the manual gives none: its first content words. */
export function idFromMessage(message: string): string {
  const id = snake(contentWords(message).slice(0, 4).join(" "));
  return isIdentifier(id) ? id : "condition";
}
