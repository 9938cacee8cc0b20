import type { EffectSource } from "../../schemas/world-source.js";
import type { ManualFunction } from "./manual-functions.js";
import { keyName, type DraftTable, type TableSet } from "./draft-tables.js";
import { tableNamed } from "./recognise-refusal.js";
import { words } from "./text.js";
import { participles } from "./effect-sentences.js";

/**
 * The row a call's row leaves behind: "Moving a guest frees the room they leave (it goes to
 * cleaning)", "… sends the loading bay it leaves to inspection". The row of the other table the
 * call's row points at (before the call changes it) takes that state. The other table is named by
 * its noun or by the words a parameter keyed to it is described with ("loading bay code").
 *
 * Also the rows of another table that belong to the call's row: "… and closes a ticket awaiting the
 * reply" → that table's rows of this row in that state (awaiting_reply) take the verb's state.
 */

const ARTICLES = new Set(["the", "a", "an", "its", "their"]);

/** Descriptions of the parameters keyed to each table, over every function: other words for the thing. */
export function tableAliases(functions: readonly ManualFunction[], set: TableSet): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  for (const f of functions) {
    for (const p of f.params ?? []) {
      const r = set.tableOfKey(keyName(p, set));
      if (!r || p.note.trim() === "") continue;
      out.set(r.name, [...(out.get(r.name) ?? []), words(p.note)]);
    }
  }
  return out;
}

export function namesTable(phrase: string, r: DraftTable, set: TableSet, aliases: ReadonlyMap<string, string[][]>): boolean {
  if (tableNamed(set, phrase) === r) return true;
  const ws = words(phrase).filter((w) => !ARTICLES.has(w));
  return ws.length > 0 && (aliases.get(r.name) ?? []).some((note) => ws.every((w) => note.includes(w)));
}

/** Effects on the row the call's row leaves (see the module comment); `key` is the parameter holding the row's key. */
export function leftRowEffects(text: string, t: DraftTable, set: TableSet, key: string, aliases: ReadonlyMap<string, string[][]>): EffectSource[] {
  const out: EffectSource[] = [];
  const re = /\b(?:frees|sends|returns|releases|puts) the ([a-z][a-z -]{0,30}?) (?:they|he|she|it|the [a-z]+) (?:leaves?|left)\b(?:\s*\((?:it|which) goes to "?([a-z][a-z0-9_]*)"?\)|\s+(?:to|into|back to) "?([a-z][a-z0-9_]*)"?)/gi;
  for (const m of text.matchAll(re)) {
    const value = (m[2] ?? m[3]) as string;
    const refs = t.columns.filter((c) => c.references);
    const hits = refs.map((c) => ({ c, r: set.tables.find((x) => `${x.name}.${x.key}` === c.references) })).filter((x): x is { c: (typeof refs)[number]; r: DraftTable } => x.r !== undefined && x.r !== t && namesTable(m[1] as string, x.r, set, aliases));
    if (hits.length !== 1) continue;
    const { c, r } = hits[0] as { c: (typeof refs)[number]; r: DraftTable };
    if (!r.statuses.includes(value)) continue;
    out.push({ sql: `UPDATE ${r.name} SET ${set.stateColumn(r)} = '${value}' WHERE ${r.key} = (SELECT ${c.name} FROM ${t.name} WHERE ${t.key} = :${key})` });
  }
  return out;
}

/** "closes a ticket awaiting the reply": the rows of that table, of this row, in that state, take the verb's participle (both known states). */
export function ownRowsEffects(text: string, t: DraftTable, set: TableSet, key: string): EffectSource[] {
  const out: EffectSource[] = [];
  for (const m of text.matchAll(/\b(close|cancel|release|withdraw|reopen)s? (?:a|any|the|every|each) ([a-z][a-z -]*?) ((?:awaiting|pending|in) (?:the |a |an )?[a-z][a-z_ -]*?)(?=[,.;)]|$|\s+(?:and|or)\b)/gi)) {
    const r = tableNamed(set, m[2] as string);
    if (!r || r === t || !r.columns.some((c) => c.name === t.key)) continue;
    const from = words(m[3] as string).filter((w) => !ARTICLES.has(w)).join("_");
    const to = participles((m[1] as string).toLowerCase()).find((p) => r.statuses.includes(p));
    if (!to || !r.statuses.includes(from)) continue;
    const col = set.stateColumn(r);
    out.push({ sql: `UPDATE ${r.name} SET ${col} = '${to}' WHERE ${t.key} = :${key} AND ${col} = '${from}'` });
  }
  return out;
}
