import type { DraftTable, TableSet } from "./draft-tables.js";
import { columnNamed } from "./recognise-refusal.js";
import { isIdentifier, quoted, sameWord, words } from "./text.js";

/**
 * What a write function changes, from the sentences a manual writes about it:
 * "…; status becomes held_compliance", "sets it to validated", "Sets the screening flag to cleared",
 * "the storage item becomes "declared"", "…: status scheduled, value date 2026-03-03", "Returns the
 * beneficiary with status verified", "sets closed_as to it" (in a parameter's note), "the space goes to
 * cleaning" (a known state; the row named by its words or its key's description), "… 30 minutes after
 * the request (four-eyes status changes from requested to approved)" (the call leaves it requested). A sentence about
 * another table's row is returned as `elsewhere` (the drafter cannot say which row; a review item).
 */

export interface SetColumn {
  column: string;
  /** A literal, or `:param`. */
  value: string | number;
}

export interface EffectReading {
  sets: SetColumn[];
  elsewhere: Array<{ phrase: string; value: string }>;
}

const STATE = /^[a-z][a-z0-9_]*$/;

/** Text of the function without its quoted refusal messages; a quoted single value (`becomes "declared"`) stays. */
export function prose(text: string): string {
  let out = text;
  for (const q of quoted(text).reverse()) if (!STATE.test(q.text)) out = `${out.slice(0, q.start)} ${out.slice(q.end)}`;
  return out;
}

function isTheRow(t: DraftTable, phrase: string): boolean {
  const ws = words(phrase).filter((w) => !["the", "a", "an", "its", "their"].includes(w));
  return ws.length === 0 || (ws.length <= 2 && ws.some((w) => sameWord(w, t.noun.split("_").at(-1) as string))) || ws.join(" ") === "it";
}

/** `admit` → admitted, `release` → released, `cancel` → cancelled/canceled, `deny` → denied. */
export function participles(verb: string): string[] {
  if (verb.endsWith("e")) return [`${verb}d`];
  if (/[^aeiou]y$/.test(verb)) return [`${verb.slice(0, -1)}ied`];
  const out = [`${verb}ed`];
  if (/[^aeiou][aeiou][bdglmnprt]$/.test(verb)) out.unshift(`${verb}${verb.at(-1)}ed`);
  return out;
}

/** Read the effects on row `t` (see the module comment); `params` are the function's parameter names. */
export function readEffects(text: string, t: DraftTable, set: TableSet, params: readonly string[], fnName = "", keyDescription?: string): EffectReading {
  const out: EffectReading = { sets: [], elsewhere: [] };
  const put = (column: string, value: string | number) => {
    if (!out.sets.some((s) => s.column === column)) out.sets.push({ column, value });
  };
  const state = (value: string) => {
    set.addStatus(t, value);
    put(set.stateColumn(t), value);
  };
  const body = prose(text);
  for (const m of body.matchAll(/\b(?:(?:the )?([a-z][a-z -]{0,40}?) )?becomes "?([a-z][a-z0-9_]*)"?/gi)) {
    const phrase = (m[1] ?? "").trim();
    const value = m[2] as string;
    if (!STATE.test(value)) continue;
    if (phrase === "" || /^(?:status|its status|the status)$/i.test(phrase) || isTheRow(t, phrase)) state(value);
    else {
      const col = columnNamed(t, phrase);
      if (col) put(col, value);
      else out.elsewhere.push({ phrase, value });
    }
  }
  // "… 30 minutes after the request (four-eyes status changes from requested to approved)": the call leaves the column in the first state.
  for (const m of body.matchAll(/\b(\d+) minutes after\b[^.]*?\(?([a-z][a-z -]{0,30}?) changes from "?([a-z][a-z0-9_]*)"? to "?([a-z][a-z0-9_]*)"?/gi)) {
    const col = columnNamed(t, m[2] as string);
    if (col) put(col, m[3] as string);
  }
  // "the space goes to cleaning": the row named by its own words or by its key's description ("ED space code"); never "it".
  for (const m of body.matchAll(/\bthe ([a-z][a-z -]{0,30}?) goes to "?([a-z][a-z0-9_]*)"?/gi)) {
    const phrase = (m[1] as string).trim();
    const value = m[2] as string;
    const keyNote = words(keyDescription ?? "");
    const named = isTheRow(t, phrase) || (words(phrase).length > 0 && words(phrase).every((w) => keyNote.includes(w)));
    if (named && t.statuses.includes(value)) state(value);
  }
  for (const m of body.matchAll(/\bsets (?:(it)|the ([a-z][a-z -]{0,40}?)|([a-z][a-z0-9_]*)) (?:back )?to (?:status )?"?([a-z][a-z0-9_]*)"?/gi)) {
    const value = m[4] as string;
    if (value === "it") continue;
    const phrase = m[2] ?? m[3] ?? "";
    const v = params.includes(value) ? `:${value}` : value;
    if (m[1] || /^status$/i.test(phrase) || isTheRow(t, phrase)) state(value);
    else {
      const col = isIdentifier(phrase) && set.column(t, phrase) ? phrase : columnNamed(t, phrase);
      if (col) put(col, v);
      else out.elsewhere.push({ phrase, value });
    }
  }
  const colon = /:\s*status ([a-z][a-z0-9_]*)\b([^;.]*)/i.exec(body) ?? /\bwith status ([a-z][a-z0-9_]*)\b/i.exec(body);
  if (colon) {
    state(colon[1] as string);
    // ": status scheduled, value date 2026-03-03": the other items of the list set their columns too.
    for (const item of (colon[2] ?? "").split(/,\s*/)) {
      const kv = /^\s*([a-z][a-z -]*?)\s+("?[A-Za-z0-9_.:-]+"?)\s*$/.exec(item);
      const col = kv ? columnNamed(t, kv[1] as string) : null;
      if (kv && col) put(col, (kv[2] as string).replace(/"/g, ""));
    }
  }
  // "a late return leaves the loan "overdue"": a state the row can be in (not always: no effect).
  for (const m of body.matchAll(/\bleaves the ([a-z][a-z -]{0,30}?) "([a-z][a-z0-9_]*)"/gi)) if (isTheRow(t, m[1] as string)) set.addStatus(t, m[2] as string);
  // "Returns the released payment", "the booked quote": the row ends in that (known) state.
  for (const m of body.matchAll(/\breturns? (?:the|a) ([a-z]+ed) ([a-z]+)\b/gi)) {
    if (t.statuses.includes(m[1] as string) && sameWord(m[2] as string, t.noun.split("_").at(-1) as string)) state(m[1] as string);
  }
  // "sets closed_as to it" in a parameter's note: the column takes the parameter's value.
  for (const m of body.matchAll(/([a-z][a-z0-9_]*)\s*[—–-][^.]*?sets ([a-z][a-z0-9_]*) to it\b/gi)) {
    if (params.includes(m[1] as string)) put(m[2] as string, `:${m[1]}`);
  }
  // The function's own verb, when its participle is a documented state of the row (`admit_to_ward` → admitted).
  if (!out.sets.some((x) => x.column === set.stateColumn(t))) {
    const verb = /^([a-z]+)_/.exec(fnName)?.[1] ?? "";
    const hit = participles(verb).find((p) => t.statuses.includes(p));
    if (hit) state(hit);
    // "Archives a closed invoice." (`archive_invoice`): the description's first verb is the function's and acts on the row itself; the row ends archived.
    // The participle must be a word of the text ("… can be cancelled"): never a made-up form ("sended").
    else if (verbActsOnRow(body, verb, t)) {
      const said = participles(verb).find((p) => words(text).includes(p));
      if (said) state(said);
    }
  }
  return out;
}

/** "Archives a closed invoice": the text opens with the function's verb, whose object is the row's noun (one adjective at most). */
function verbActsOnRow(body: string, verb: string, t: DraftTable): boolean {
  const m = /^\s*([A-Za-z][a-z]+) (?:the|a|an) (?:([a-z-]+) )?([a-z]+)\b/.exec(body);
  const said = m?.[1]?.toLowerCase() ?? "";
  if (!m || verb.length < 4 || ![verb, `${verb}s`, `${verb}es`, verb.replace(/y$/, "ies")].includes(said)) return false;
  return sameWord(m[3] as string, t.noun.split("_").at(-1) as string) && (m[3] as string).length >= 3;
}

/**
 * Time columns a write function stamps: the row's `…_at` columns it returns whose words hold the
 * participle of a word of the function's name (`audit_invoice` returning `audited_at`,
 * `record_reinspection` returning `last_reinspected_at`): they take the call's time.
 */
export function stampedColumns(fnName: string, returned: readonly string[], t: DraftTable): string[] {
  const verbs = fnName.split("_").filter((w) => w.length >= 4).flatMap((w) => [w, w.replace(/ment$/, "")]);
  const forms = new Set(verbs.flatMap((v) => participles(v)));
  return returned.filter((c) => /_at$/.test(c) && t.columns.some((x) => x.name === c) && c.replace(/_at$/, "").split("_").some((w) => forms.has(w)));
}

/**
 * "escalation_due_by is filled when … ; it is cleared by `escalate_to_physician`" (a manual's
 * description of its fields): the function empties that column of its row.
 */
export function clearedBy(text: string): Array<{ column: string; fn: string }> {
  const out: Array<{ column: string; fn: string }> = [];
  for (const sentence of text.split(/(?<=\.)\s+(?=[-A-Z*`])|\n\s*\n/)) {
    const m = /^(?:[-*]\s+)?(?:\*\*[^*]+\*\*\s*)?`?([a-z][a-z0-9]*_[a-z0-9_]+)`?\s+(?:is|are)\b[^.]*?\b(?:it|they|and) (?:is |are )?cleared by `([a-z][a-z0-9_]*)`/.exec(sentence.replace(/\s+/g, " ").trim());
    if (m) out.push({ column: m[1] as string, fn: m[2] as string });
  }
  return out;
}
