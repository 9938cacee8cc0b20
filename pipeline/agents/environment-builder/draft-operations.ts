import type { EffectSource, OperationSource, PreconditionSource } from "../../schemas/world-source.js";
import type { ReviewItem } from "../../schemas/world-review.js";
import type { ManualFunction } from "./manual-functions.js";
import type { ManualParam } from "./parse-params.js";
import { keyName, paramType, typeOfName, type DraftTable, type TableSet } from "./draft-tables.js";
import { idFromMessage, recogniseRefusal, type OpContext } from "./recognise-refusal.js";
import { prose, readEffects, stampedColumns } from "./effect-sentences.js";
import { balanceEffects, transferEffects } from "./balance-sentences.js";
import { leftRowEffects, ownRowsEffects, tableAliases } from "./left-rows.js";
import { awaitedState } from "./refusal-shapes.js";
import { humanise, sameWord } from "./text.js";

/**
 * Operations from the manual's functions: parameters (type, enumeration, range, format, who knows
 * the value), preconditions from refusal messages (recognise-refusal.ts), effects from "sets /
 * becomes" sentences (effect-sentences.ts, a status change as a `transition`), results from what the
 * function returns. What cannot be derived becomes a review item naming the manual line.
 */

export type Pending = Omit<ReviewItem, "id">;
export type DraftOperation = OperationSource & { /** The row the operation is about. */ table: DraftTable | null; fn: ManualFunction; clauses: Map<string, string[]> };

const place = (f: ManualFunction, text: string, line = f.line) => ({ file: f.file, line, text });

function paramOf(p: ManualParam, name: string, set: TableSet): OperationSource["params"][string] {
  const ref = set.tableOfKey(name);
  const declared = p.type ?? (ref ? "string" : (paramType(typeOfName(name)) ?? "string"));
  // Formats of the conventions apply to keys only (a boat's name is not an owner reference because the note says "owner").
  const format = p.pattern ?? (ref ? set.formatOf(ref.noun, p.note)?.pattern : undefined);
  const note = p.note.replace(/\s+/g, " ").trim() || (ref ? (set.keyOf(name) ?? "") : "");
  return {
    type: declared,
    description: note.length > 0 ? `${note.charAt(0).toUpperCase()}${note.slice(1)}${/[.!?]$/.test(note) ? "" : "."}` : humanise(name),
    required: true,
    ...(p.enum ? { enum: p.enum } : {}),
    ...(p.minimum !== undefined && declared !== "string" ? { minimum: p.minimum } : {}),
    ...(p.maximum !== undefined && declared !== "string" ? { maximum: p.maximum } : {}),
    max_length: p.max_length ?? 200,
    ...(format && declared === "string" && !p.enum ? { pattern: format } : {}),
    source: p.source ?? "state",
  };
}

/** The row an operation is about: its first key parameter that is not the customer's (else the customer's). */
function subjectOf(params: readonly string[], set: TableSet): DraftTable | null {
  const own = params.map((p) => set.byKey.get(p) ?? null).filter((t): t is DraftTable => t !== null);
  return own.find((t) => t !== set.customer) ?? own[0] ?? null;
}

/** Tables whose noun a text names, in the order the text names them. */
function thingsNamed(text: string, set: TableSet): DraftTable[] {
  const ws = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const at = (t: DraftTable) => {
    const nw = t.noun.split("_");
    return ws.findIndex((_w, i) => nw.every((x, k) => ws[i + k] === x || ws[i + k] === `${x}s`));
  };
  return set.tables.filter((t) => at(t) >= 0).sort((a, b) => at(a) - at(b));
}

function uniqueId(taken: Set<string>, id: string): string {
  let out = id;
  for (let n = 2; taken.has(out); n++) out = `${id}_${n}`;
  taken.add(out);
  return out;
}

/** Draft one operation (approvals and rules are added afterwards, across operations). */
/** What the first drafting pass knows across functions: what each writes, other words for each table. */
export interface Across {
  written?: OpContext["written"];
  aliases?: ReadonlyMap<string, string[][]>;
  enums?: OpContext["enums"];
}

export function draftOperation(f: ManualFunction, set: TableSet, minuteZero: number | null, review: Pending[], across: Across = {}): DraftOperation {
  const written = across.written;
  const subject = `operation ${f.name}`;
  const params: OperationSource["params"] = {};
  for (const p of f.params ?? []) {
    const name = keyName(p, set);
    if (name in params) continue;
    params[name] = paramOf(p, name, set);
  }
  if (f.paramsFromProse !== undefined) {
    // Read from prose: the first thing its description names is what it works on too (not one a parameter keys already, nor the thing it creates).
    const keyed = Object.keys(params).map((n) => set.tableOfKey(n));
    const created = thingsNamed(/\breturns? (?:the )?(?:new )?([a-z ]+?) (?:reference|number|id)\b/i.exec(f.text)?.[1] ?? "", set);
    const named = thingsNamed(f.description, set).filter((x) => !created.includes(x) && !keyed.includes(x)).slice(0, 1);
    for (const t0 of named) {
      // First: the row the operation is about.
      const rest = { ...params };
      for (const k of Object.keys(params)) delete params[k];
      params[t0.key] = { type: "string", description: `${humanise(t0.noun).slice(0, -1)} reference.`, required: true, max_length: 200, source: "state", ...(set.formatOf(t0.noun) ? { pattern: set.formatOf(t0.noun)?.pattern as string } : {}) };
      Object.assign(params, rest);
    }
    review.push({ kind: "parameter", subject, what: `the manual gives no parameter list for ${f.name}; drafted from its prose ("${f.paramsFromProse}"): ${Object.keys(params).join(", ")}; check names, types and sources`, where: [place(f, f.paramsFromProse)] });
  }
  if (f.params === null) {
    // No parameter list: the one thing its description names ("releases the goods of a declaration") is what it takes.
    // Not the thing it creates ("Returns the hold reference").
    const created = thingsNamed(/\breturns? (?:the )?(?:new )?([a-z ]+?) (?:reference|number|id)\b/i.exec(f.text)?.[1] ?? "", set);
    const named = thingsNamed(f.description, set).filter((x) => !created.includes(x)).slice(0, 1);
    if (named.length === 1) {
      const t0 = named[0] as DraftTable;
      params[t0.key] = { type: "string", description: `${humanise(t0.noun).slice(0, -1)} reference.`, required: true, max_length: 200, source: "state", ...(set.formatOf(t0.noun) ? { pattern: set.formatOf(t0.noun)?.pattern as string } : {}) };
    }
    review.push({ kind: "parameter", subject, what: `the manual gives no parameter list for ${f.name}${named.length === 1 ? ` (drafted: ${named[0]?.key}, the thing its description names)` : ""}: check and complete its params (name, type, description, source)`, where: [place(f, f.description || f.name)] });
  }
  const names = Object.keys(params);
  const t = f.access === "read" && /^(?:list|find|search)_/.test(f.name) ? null : subjectOf(names, set);
  const op: DraftOperation = { name: f.name, description: f.description || humanise(f.name), side: f.side, access: f.access, params, preconditions: [], effects: [], result: null, rules: [], table: t, fn: f, clauses: new Map() };
  const ids = new Set<string>();
  const ctx: OpContext = { table: t, params: names.map((n) => ({ name: n, source: params[n]?.source, type: params[n]?.type })), set, minuteZero, ...(written ? { written } : {}), ...(across.aliases ? { aliases: across.aliases } : {}), ...(across.enums ? { enums: across.enums } : {}) };
  for (const r of f.refusals) {
    const rec = recogniseRefusal(r.message, ctx, r.cause);
    if (!rec) {
      review.push({ kind: "precondition", subject, what: `refusal "${r.message}" needs its condition: add a precondition with this message (a shorthand such as in_state, limit or referenced, or sql)`, where: [place(f, r.message, r.line)] });
      continue;
    }
    const { idHint, hidden, ...shape } = rec;
    if (hidden && t) set.addColumn(t, hidden, { hidden: true, type: params[hidden]?.type === "number" ? "real" : params[hidden]?.type === "integer" ? "integer" : "text", description: `${humanise(hidden).slice(0, -1)} on file; checked, never displayed.` });
    const id = uniqueId(ids, r.id ?? idHint);
    op.preconditions.push({ id, message: r.message, ...shape } as PreconditionSource);
    if (r.clauses.length > 0) op.clauses.set(id, r.clauses);
  }
  const made = f.access === "write" && f.side === "agent" ? createdRow(f, t, set, names) : null;
  if (made) {
    op.effects.push(made.effect);
    review.push({ kind: "effect", subject, what: `${f.name} returns the key of a new ${made.table.noun.replace(/_/g, " ")} (${made.table.key}): drafted its INSERT with the parameters the table has (${Object.keys(made.effect.values ?? {}).join(", ")}); add the values the row starts with (state, times) and check new keys cannot collide with fixed rows`, where: [place(f, made.from)] });
  }
  if (f.access === "write" && f.side === "agent" && t) {
    const notes = (f.params ?? []).map((p) => `${p.name} — ${p.note}`).join(". ");
    const read = readEffects(`${f.text} ${notes}`, t, set, names, f.name, (f.params ?? []).find((p) => keyName(p, set) === t.key)?.note);
    // "Record the triage history (…, allergies, …)" returning history_allergies: the row keeps what it is given in its `<x>_<param>` column.
    if (!/^(?:propose|offer|request_\w*authori[sz]ation)/.test(f.name)) {
      for (const p of names) {
        if (p === t.key || set.tableOfKey(p)) continue;
        const kept = (f.returns?.fields ?? []).filter((c) => c !== p && c.endsWith(`_${p}`) && set.column(t, c));
        if (kept.length === 1 && !read.sets.some((x) => x.column === kept[0])) read.sets.push({ column: kept[0] as string, value: `:${p}` });
      }
      // "Returns: …, audited_at" of `audit_invoice`: the row keeps the time of the call.
      for (const c of stampedColumns(f.name, f.returns?.fields ?? [], t)) if (!read.sets.some((x) => x.column === c)) read.sets.push({ column: c, value: ":now" });
      // "Allocate an ED space … to a patient" taking bed_id and returning the row's bed_id: the row now references it.
      for (const p of names) {
        if (p === t.key || !set.tableOfKey(p) || set.tableOfKey(p) === set.customer || !set.column(t, p) || !(f.returns?.fields ?? []).includes(p)) continue;
        if (!read.sets.some((x) => x.column === p)) read.sets.push({ column: p, value: `:${p}` });
      }
    }
    // "The parcel is not awaiting inspection" (already inspected or returned): the call inspects it.
    const awaited = f.refusals.map((r) => awaitedState(r.message, r.cause)).find((x) => x !== null);
    if (awaited && !/^(?:propose|offer|request_\w*authori[sz]ation)/.test(f.name) && !read.sets.some((x) => x.column === set.stateColumn(t))) {
      set.addStatus(t, awaited);
      read.sets.unshift({ column: set.stateColumn(t), value: awaited });
    }
    for (const e of read.elsewhere) review.push({ kind: "effect", subject, what: `"${e.phrase}" becomes ${e.value}: write the effect on that row (which row of which table the manual does not say)`, where: [place(f, `${e.phrase} becomes ${e.value}`)] });
    if (read.sets.length > 0) {
      const set2: Record<string, string | number> = {};
      for (const s of read.sets) set2[s.column] = typeof s.value === "string" && !s.value.startsWith(":") ? s.value : s.value;
      const stateCol = set.stateColumn(t);
      const status = set2[stateCol];
      // "closes the attendance" (and sets discharged): a state in which the row is no longer open.
      const closes = /\bclos(?:e|es|ing) the (?:[A-Z]{2,} )?([a-z]+)\b/.exec(f.text);
      if (typeof status === "string" && closes && sameWord(closes[1] as string, t.noun.split("_").at(-1) as string)) set.addClosed(t, status);
      if (typeof status === "string" && set.column(t, `${status}_at`) && !(`${status}_at` in set2)) set2[`${status}_at`] = ":now";
      const from = op.preconditions.findIndex((p) => p.in_state === t.name && p.where && Object.keys(p.where).join() === stateCol && (typeof p.where[stateCol] === "string" || Array.isArray(p.where[stateCol])));
      if (status !== undefined && from >= 0 && params[t.key]) {
        const pc = op.preconditions.splice(from, 1)[0] as PreconditionSource;
        const { [stateCol]: to, ...others } = set2;
        op.transition = { table: t.name, column: stateCol, from: (pc.where as Record<string, string | string[]>)[stateCol] as string, to: to as string, message: pc.message, id: pc.id, ...(Object.keys(others).length > 0 ? { set: others } : {}) };
        const clauses = op.clauses.get(pc.id);
        if (clauses) op.clauses.set(pc.id, clauses);
      } else if (params[t.key]) op.effects.push({ update: t.name, set: set2 });
    }
    // "debits the source wallet": the balance of the row it points at.
    const moved = params[t.key] ? balanceEffects(prose(f.text), t, set, t.key) : [];
    op.effects.push(...moved);
    // "frees the room they leave (it goes to cleaning)": before the row points elsewhere.
    const left = params[t.key] ? leftRowEffects(prose(f.text), t, set, t.key, across.aliases ?? new Map()) : [];
    op.effects.unshift(...left);
    moved.push(...left);
    // "… and closes a query awaiting the reply": this row's rows of that table in that state.
    const own = params[t.key] ? ownRowsEffects(prose(f.text), t, set, t.key) : [];
    op.effects.push(...own);
    moved.push(...own);
    if (read.sets.length === 0 && moved.length === 0 && !made && !/^(?:propose|offer|request_\w*authori[sz]ation)/.test(f.name)) {
      review.push({ kind: "effect", subject, what: `the manual does not say what ${f.name} changes in a sentence the drafter reads ("sets …", "… becomes …"): add its effects`, where: [place(f, f.description || f.name)] });
    }
  }
  // "Internal transfer between two wallets" (from_wallet_id, to_wallet_id, amount): whatever row the call is about.
  if (f.access === "write" && f.side === "agent") op.effects.push(...transferEffects(prose(f.text), ctx.params, set));
  op.result = resultOf(f, op, set, review);
  return op;
}

/**
 * The row a write function creates: the thing whose key it returns first ("Returns: obs_id, …") or
 * as "the new declaration reference", when it does not take that key. Drafted as an INSERT with the
 * new key in the format the conventions give (`ATT-nnnn` → `ATT-{call:4}`) and every parameter that
 * is a column of the thing; null when the conventions give no format for its key.
 */
function createdRow(f: ManualFunction, t: DraftTable | null, set: TableSet, names: readonly string[]): { table: DraftTable; effect: EffectSource; from: string } | null {
  const first = f.returns?.fields[0];
  let made = first ? (set.byKey.get(first) ?? null) : null;
  let from = f.returns?.text ?? "";
  if (!made) {
    const m = /\breturns? (?:the )?new ([a-z ]+?) (?:reference|number|id)\b/i.exec(f.text);
    made = m ? (thingsNamed(m[1] as string, set)[0] ?? null) : null;
    from = m?.[0] ?? "";
  }
  if (!made || made === t || names.includes(made.key)) return null;
  const format = set.formatOf(made.noun);
  const run = format ? /n+$/.exec(format.written) : null;
  if (!format || !run) return null;
  const key = `${format.written.slice(0, run.index)}${run[0].length > 1 ? `{call:${run[0].length}}` : "{call}"}`;
  const values: Record<string, EffectSource["values"] extends Record<string, infer V> | undefined ? V : never> = { [made.key]: { key } };
  for (const p of names) if (p !== made.key && set.column(made, p)) values[p] = `:${p}`;
  return { table: made, effect: { insert: made.name, values }, from };
}

/** Draft every function, twice: the states one function's messages name ("a released payment") are then known when an earlier one is read ("has not been released"). */
export function draftOperations(functions: readonly ManualFunction[], set: TableSet, minuteZero: number | null, review: Pending[]): DraftOperation[] {
  const written = new Map<string, { table: string; columns: string[] }>();
  const aliases = tableAliases(functions, set);
  const enums = new Map<string, readonly string[]>();
  for (const f of functions) {
    const op = draftOperation(f, set, minuteZero, [], { aliases });
    const own = op.table ? op.effects.filter((e) => e.update === op.table?.name).flatMap((e) => Object.keys(e.set ?? {})) : [];
    const moved = op.transition ? [op.transition.column, ...Object.keys(op.transition.set ?? {})] : [];
    if (op.table && own.length + moved.length > 0) written.set(f.name, { table: op.table.name, columns: [...own, ...moved] });
    // "weapon (string, no / yes)" kept in intake_weapon: that column takes those values.
    for (const e of op.effects) for (const [col, v] of Object.entries(e.set ?? {})) if (typeof v === "string" && op.params[v.slice(1)]?.enum) enums.set(`${e.update}.${col}`, op.params[v.slice(1)]?.enum as string[]);
  }
  return functions.map((f) => draftOperation(f, set, minuteZero, review, { written, aliases, enums }));
}

function resultOf(f: ManualFunction, op: DraftOperation, set: TableSet, review: Pending[]): OperationSource["result"] {
  const fields = f.returns?.fields ?? [];
  if (f.access === "read") {
    const noun = /^(?:list|find|search)_(.+)$/.exec(f.name)?.[1];
    const listed = noun ? (set.tables.find((x) => x.name === noun || x.name === `${noun}s`) ?? null) : op.table;
    const by = Object.keys(op.params)[0];
    if (listed) {
      const cols = fields.filter((c) => set.column(listed, c) !== undefined);
      const withKey = cols.includes(listed.key) ? cols : [listed.key, ...cols];
      if (withKey.length > 0) {
        if (!noun) return { table: listed.name, columns: withKey };
        if (by && set.column(listed, by)) return { table: listed.name, columns: withKey, by, order_by: [listed.key] };
        if (!by) return { table: listed.name, columns: withKey, all: true, order_by: [listed.key] };
      }
    }
    review.push({ kind: "result", subject: `operation ${f.name}`, what: `write the result of ${f.name} (${f.returns?.text ?? "the manual does not say what it returns"})`, where: [place(f, f.returns?.text ?? f.description)] });
    return null;
  }
  const t = op.table;
  if (!t || !op.params[t.key]) return null;
  const cols = fields.filter((c) => set.column(t, c) !== undefined);
  return cols.length > 0 ? { table: t.name, columns: cols.includes(t.key) ? cols : [t.key, ...cols] } : null;
}
