import type { ManualConventions, ManualFunction } from "./manual-functions.js";
import type { ManualParam } from "./parse-params.js";
import { humanise, isIdentifier, plural, sameWord, singular, snake, words } from "./text.js";

/**
 * Tables and columns from what the manual says about its functions: every `<thing>_id` key
 * parameter names a thing, `get_<thing>` / `list_<things>` name its table, returned fields are its
 * columns, a role-prefixed key (`debit_account_id`) references the thing's table, and the customer
 * table is the thing the domain card's customer is (a "client", a "patient").
 */

export interface DraftColumn {
  name: string;
  type: "text" | "integer" | "real" | "boolean";
  nullable: boolean;
  hidden: boolean;
  references?: string;
  description: string;
}

export interface DraftTable {
  name: string;
  /** The thing a row is, singular (`payment`). */
  noun: string;
  key: string;
  columns: DraftColumn[];
  owner?: string;
  /** State values seen in the documents, in the order first seen. */
  statuses: string[];
  /** States in which the manual says a function "closes" the row (`closes the attendance` and sets discharged). */
  closed?: string[];
  /** Where the manual first names the table (function and line). */
  line: number;
  file: string;
}

const NUMBER_WORDS = /^(?:amount|value|rate|balance|price|cost|fee|total|sum|estimate|eur|usd|gbp|chf|headroom|duty|floor|limit|ceiling)$/;
const INTEGER_WORDS = /^(?:days|day|nights|night|hours|weeks|months|years|minutes|minute|count|level|score|qty|quantity|position|age|units|pieces)$/;

/** The SQLite type a name suggests: `_at`/minutes/levels integer, amounts real, `is_`/`has_` boolean, else text. */
export function typeOfName(name: string): DraftColumn["type"] {
  const ws = name.split("_");
  const last = ws[ws.length - 1] ?? "";
  if (/_at$|_by$|_due$|_minute$|^minute/.test(name)) return "integer";
  if (/^(?:is|has)_/.test(name)) return "boolean";
  if (/(?:_id|_ref|_code|_number|_status|_name|_type|_kind|_date|_flag)$/.test(name) || last === "status") return "text";
  if (ws.some((w) => NUMBER_WORDS.test(w)) && !ws.some((w) => /^(?:code|currency|status|kind|type|tier)$/.test(w))) return "real";
  if (INTEGER_WORDS.test(last)) return "integer";
  return "text";
}

/** The parameter type a column type maps to. */
export function paramType(t: DraftColumn["type"]): ManualParam["type"] {
  return t === "integer" ? "integer" : t === "real" ? "number" : t === "boolean" ? "boolean" : "string";
}

export class TableSet {
  readonly tables: DraftTable[] = [];
  readonly byNoun = new Map<string, DraftTable>();
  readonly byKey = new Map<string, DraftTable>();
  customer: DraftTable | null = null;
  /** Values a Field | Values table gives for a column other than a state (`attendances.precautions` → unscreened, standard, …). */
  readonly values = new Map<string, string[]>();

  constructor(readonly conventions: ManualConventions) {}

  add(noun: string, fn: ManualFunction, key = `${noun}_id`): DraftTable {
    const hit = this.byNoun.get(noun) ?? this.byKey.get(key);
    if (hit) return hit;
    const t: DraftTable = { name: plural(noun), noun, key, columns: [], statuses: [], line: fn.line, file: fn.file };
    t.columns.push({ name: key, type: "text", nullable: false, hidden: false, description: this.keyDescription(noun) });
    this.tables.push(t);
    this.byNoun.set(noun, t);
    this.byKey.set(key, t);
    return t;
  }

  keyDescription(noun: string): string {
    const f = this.formatOf(noun);
    return f ? `${humanise(noun).slice(0, -1)} reference (${f.written}).` : `${humanise(noun).slice(0, -1)} reference.`;
  }

  /** Description of a key column or parameter: the thing's reference and its format. */
  keyOf(name: string): string | null {
    const t = this.tableOfKey(name);
    return t ? (t.columns.find((c) => c.name === t.key)?.description ?? null) : null;
  }

  /** The conventions' identifier format for a thing (`attendance ATT-nnnn`), matched by its words. */
  formatOf(noun: string, note = ""): { pattern: string; written: string } | null {
    const nounWords = noun.split("_");
    for (const f of this.conventions.formats) {
      const fw = words(f.noun);
      if (fw.length === nounWords.length && fw.every((w, i) => sameWord(w, nounWords[i] as string))) return { pattern: f.pattern, written: f.written };
      if (note && new RegExp(`\\b${f.noun}\\b`, "i").test(note)) return { pattern: f.pattern, written: f.written };
    }
    // "observation set OBS-n" for observations: the format's words start with the noun's, and no other thing is named by them all.
    for (const f of this.conventions.formats) {
      const fw = words(f.noun);
      const starts = fw.length > nounWords.length && nounWords.every((w, i) => sameWord(w, fw[i] as string));
      const other = this.tables.some((t) => t.noun !== noun && t.noun.split("_").length === fw.length && t.noun.split("_").every((w, i) => sameWord(w, fw[i] as string)));
      if (starts && !other) return { pattern: f.pattern, written: f.written };
    }
    return null;
  }

  /** The table a key-like parameter points at: `payment_id` → payments, `debit_account_id` → accounts. */
  tableOfKey(name: string): DraftTable | null {
    const direct = this.byKey.get(name);
    if (direct) return direct;
    if (!name.endsWith("_id")) return null;
    const parts = name.slice(0, -3).split("_");
    for (let i = 0; i < parts.length; i++) {
      const t = this.byKey.get(`${parts.slice(i).join("_")}_id`) ?? this.byNoun.get(parts.slice(i).join("_"));
      if (t) return t;
    }
    return null;
  }

  column(t: DraftTable, name: string): DraftColumn | undefined {
    return t.columns.find((c) => c.name === name);
  }

  addColumn(t: DraftTable, name: string, extra: Partial<DraftColumn> = {}): DraftColumn {
    const hit = this.column(t, name);
    if (hit) {
      if (extra.hidden) hit.hidden = true;
      return hit;
    }
    const ref = name !== t.key ? this.tableOfKey(name) : null;
    const c: DraftColumn = {
      name,
      type: typeOfName(name),
      nullable: /_at$/.test(name),
      hidden: false,
      ...(ref ? { references: `${ref.name}.${ref.key}` } : {}),
      description: humanise(name),
      ...extra,
    };
    t.columns.push(c);
    return c;
  }

  /** The column holding a row's state: `status`, else the one `…_status` column, else a new `status`. */
  stateColumn(t: DraftTable): string {
    if (this.column(t, "status")) return "status";
    const named = t.columns.filter((c) => c.name.endsWith("_status"));
    const col = named.length === 1 ? (named[0]?.name as string) : "status";
    this.addColumn(t, col);
    return col;
  }

  addClosed(t: DraftTable, value: string): void {
    t.closed ??= [];
    if (!t.closed.includes(value)) t.closed.push(value);
  }

  addStatus(t: DraftTable, value: string): void {
    if (isIdentifier(value) && !t.statuses.includes(value)) t.statuses.push(value);
  }
}

/** The thing a function is about: `get_payment` → payment, `list_accounts` → account. */
export function nounOfFunction(name: string): string | null {
  const m = /^(?:get|list|find|lookup|look_up|show|view|read)_(.+)$/.exec(name);
  if (!m) return null;
  return singular(m[1] as string);
}

/** Prose key parameters become `<thing>_id`: "importer reference" → importer_id, "storage item" → storage_item_id. */
export function keyName(p: ManualParam, set: TableSet): string {
  if (p.exact) return p.name;
  const base = p.name.replace(/_(?:reference|ref|number|no|id)$/, "");
  if (set.byNoun.has(base)) return set.byNoun.get(base)?.key ?? `${base}_id`;
  for (const f of set.conventions.formats) if (snake(f.noun) === base || snake(f.noun) === p.name) return `${base}_id`;
  return p.name;
}

/** Build the tables from the functions (see the module comment); `customerText` is the card's `customer`. */
export function draftTables(functions: readonly ManualFunction[], conventions: ManualConventions, customerText: string): TableSet {
  const set = new TableSet(conventions);
  // Things: what get_/list_ functions are about, and every exact `<thing>_id` parameter of an enquiry.
  for (const f of functions) {
    const noun = nounOfFunction(f.name);
    const params = (f.params ?? []).map((p) => keyName(p, set));
    // `get_<thing>(<key>)`: the table of the thing, keyed by the one parameter.
    if (!noun || !/^(?:get|lookup|look_up|show|view)_/.test(f.name) || params.length !== 1) continue;
    const other = set.tableOfKey(params[0] as string);
    if (other && other.noun !== snake(noun) && f.returns?.many) {
      // `get_observations(attendance_id)` returning a list: the observations of an attendance, keyed by their own id field.
      const own = f.returns.fields.find((x) => x.endsWith("_id") && !set.tableOfKey(x));
      set.add(snake(noun), f, own ?? `${snake(noun)}_id`);
    } else set.add(snake(noun), f, params[0] as string);
  }
  // `list_<things>(<owner key>)`: the table of the things, keyed `<thing>_id`.
  for (const f of functions) {
    const noun = nounOfFunction(f.name);
    if (noun && f.name.startsWith("list_") && !set.byNoun.has(snake(noun))) set.add(snake(noun), f);
  }
  for (const f of functions) {
    for (const p of f.params ?? []) {
      const n = keyName(p, set);
      if (n.endsWith("_id") && n !== "proposal_id" && !set.tableOfKey(n)) set.add(n.slice(0, -3), f, n);
    }
  }
  // A write function that returns first the key of a thing the conventions give a reference format for
  // (`escalate_to_physician` → escalation_id, "escalation ESC-n"): the table of the things it creates.
  for (const f of functions) {
    const first = f.returns?.fields[0];
    if (f.access !== "write" || !first?.endsWith("_id") || set.tableOfKey(first)) continue;
    const noun = first.slice(0, -3);
    const fw = noun.split("_");
    if (!conventions.formats.some((x) => words(x.noun).length === fw.length && words(x.noun).every((w, i) => sameWord(w, fw[i] as string)))) continue;
    const t = set.add(noun, f, first);
    for (const field of f.returns?.fields ?? []) addReturned(set, t, field);
  }
  const cw = words(customerText);
  set.customer = set.tables.find((t) => cw.some((w) => sameWord(w, t.noun) && w.length >= t.noun.length - 1)) ?? null;
  // Columns: what get_<thing> returns, and what list_<things> return for the thing they list.
  for (const f of functions) {
    const noun = nounOfFunction(f.name);
    const t = noun ? (set.byNoun.get(snake(noun)) ?? set.tables.find((x) => x.name === plural(snake(noun)))) : null;
    if (!t || !f.returns) continue;
    for (const field of f.returns.fields) addReturned(set, t, field);
    const by = (f.params ?? []).map((p) => keyName(p, set))[0];
    // `list_<things>(<owner key>)` lists the things of that owner: they hold its key.
    if ((f.returns.many || f.name.startsWith("list_")) && by && by !== t.key) set.addColumn(t, by);
  }
  // State values the enquiries print: "status (open, booked, expired)".
  for (const f of functions) {
    const noun = nounOfFunction(f.name);
    const t = noun ? (set.byNoun.get(snake(noun)) ?? null) : null;
    const m = t && f.returns ? /\bstatus \(([^)]+)\)/i.exec(f.returns.text) : null;
    if (t && m) for (const v of (m[1] as string).split(/,\s*|\s+or\s+/)) set.addStatus(t, snake(v));
  }
  for (const t of set.tables) {
    const ck = set.customer?.key;
    if (ck && set.column(t, ck)) t.owner = ck;
  }
  return set;
}

/** A returned field as a column; "debit account" → debit_account_id when accounts is a table. */
function addReturned(set: TableSet, t: DraftTable, field: string): void {
  if (!isIdentifier(field) || field === "proposal_id") return;
  const asKey = `${field}_id`;
  if (!field.endsWith("_id") && set.tableOfKey(asKey) && set.tableOfKey(asKey) !== t) {
    set.addColumn(t, asKey);
    return;
  }
  set.addColumn(t, field);
}

/** A "Field | Values" table: "Attendance status | waiting_triage, in_department, …" gives that table's states. */
export function readStateTables(tables: ReadonlyArray<{ header: Array<{ text: string }>; rows: Array<{ cells: Array<{ text: string }> }> }>, set: TableSet): void {
  for (const tb of tables) {
    if (!/field/i.test(tb.header[0]?.text ?? "") || !/values?/i.test(tb.header[1]?.text ?? "")) continue;
    for (const r of tb.rows) {
      const field = r.cells[0]?.text ?? "";
      const m = /^(.*?)\s+status$/i.exec(field);
      if (!m) {
        // "Precautions | unscreened, standard, …": the values of the one table's column of that name.
        const col = snake(field);
        const holders = set.tables.filter((x) => set.column(x, col));
        const vals = (r.cells[1]?.text ?? "").split(/,\s*/).map((v) => v.trim());
        if (holders.length === 1 && vals.length >= 2 && vals.every((v) => /^[a-z][a-z0-9_:-]*$/i.test(v))) set.values.set(`${holders[0]?.name}.${col}`, vals);
        continue;
      }
      const noun = snake(m[1] as string);
      const t = set.byNoun.get(noun) ?? set.tables.find((x) => x.noun.endsWith(noun)) ?? null;
      if (!t) continue;
      for (const v of (r.cells[1]?.text ?? "").split(/,\s*/)) if (isIdentifier(v.trim())) set.addStatus(t, v.trim());
      set.stateColumn(t);
    }
  }
}
