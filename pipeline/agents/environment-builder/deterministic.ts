import { FoundryError } from "../../core/errors.js";
import type { FormalRule } from "../../schemas/world-model.js";
import type { ReviewItem, WorldReview } from "../../schemas/world-review.js";
import type { Sop } from "../../schemas/sop.js";
import { loadDomain, type LoadedDomain } from "../../sources/load-domain.js";
import { outlineText } from "../../sources/ingest.js";
import { extractLoadedSync } from "../../sop/extract-loaded.js";
import { readConventions, readManualFunctions, type ManualFunction, type ManualInput } from "./manual-functions.js";
import { draftTables, readStateTables, type DraftTable, type TableSet } from "./draft-tables.js";
import { draftOperations, type DraftOperation, type Pending } from "./draft-operations.js";
import { draftApprovals } from "./draft-approvals.js";
import { draftRules } from "./draft-rules.js";
import { renderWorld } from "./render-world.js";
import { clearedBy } from "./effect-sentences.js";
import { humanise, isIdentifier } from "./text.js";

/**
 * The environment builder's deterministic strategy: a world drafted from the domain's documents
 * alone (never from an existing world.yaml). Tool manuals supply tables, operations, parameters,
 * preconditions, effects and results; procedures supply operations they name that no manual
 * documents; rules supply clause ids and amounts. Everything it cannot derive is a review item.
 */

export interface WorldDraft {
  /** world.yaml as data (shorthands kept). */
  world: Record<string, unknown>;
  yaml: string;
  review: WorldReview;
  /** The SOP of the documents alone (no world), which the draft was made from. */
  sop: Sop;
}

/** The documents of a domain folder with no world: what every draft starts from. */
export function documentsOnly(dir: string): { loaded: LoadedDomain; sop: Sop } {
  const loaded = loadDomain(dir);
  if (!loaded.card) throw new FoundryError("DRAFT_NO_CARD", "the domain card is missing or invalid; run synth check-sources on the folder", { file: dir });
  const { worldText: _ignored, ...docs } = loaded;
  return { loaded: docs, sop: extractLoadedSync(docs).sop };
}

function tableData(t: DraftTable): Record<string, unknown> {
  const columns = t.columns.map((c) => ({
    name: c.name,
    type: c.type,
    ...(c.nullable ? { nullable: true } : {}),
    ...(c.references ? { references: c.references } : {}),
    ...(c.hidden ? { hidden: true } : {}),
    description: c.name === "status" && t.statuses.length > 0 ? t.statuses.join(" | ") : c.description,
  }));
  return { name: t.name, description: `${humanise(t.name).slice(0, -1)}, as the tool manual shows them.`, primary_key: t.key, ...(t.owner ? { owner_column: t.owner } : {}), columns, rows: [] };
}

function operationData(op: DraftOperation): Record<string, unknown> {
  const { table: _t, fn: _f, clauses: _c, ...rest } = op;
  // Parameters without the format's defaults (required, max_length 200, source state): what a person would write.
  const params = Object.fromEntries(
    Object.entries(rest.params).map(([k, p]) => {
      const { required, max_length, source, ...keep } = p;
      return [k, { ...keep, ...(required === false ? { required } : {}), ...(max_length !== 200 && max_length !== undefined ? { max_length } : {}), ...(source !== "state" && source !== undefined ? { source } : {}) }];
    }),
  );
  const out: Record<string, unknown> = { name: rest.name, description: rest.description, side: rest.side, access: rest.access, params };
  if (rest.transition) out.transition = rest.transition;
  // Preconditions read id, what is checked, then the message and rule.
  if (rest.preconditions.length > 0) out.preconditions = rest.preconditions.map(({ id, message, rule, ...shape }) => ({ id, ...shape, message, ...(rule !== undefined ? { rule } : {}) }));
  if (rest.effects.length > 0) out.effects = rest.effects;
  if (rest.result) out.result = rest.result;
  for (const k of ["proposes", "approves", "requires_approval"] as const) if (rest[k] !== undefined) out[k] = rest[k];
  if (rest.rules.length > 0) out.rules = rest.rules;
  return out;
}

/** Operations named by a procedure step of a document in force that no tool manual documents. */
function procedureOperations(sop: Sop, known: Set<string>, fileOf: (d: string, v: string) => string, review: Pending[]): DraftOperation[] {
  const out: DraftOperation[] = [];
  for (const wf of sop.workflows) {
    if (sop.documents.find((d) => d.id === wf.document && d.version === wf.version)?.status !== "current") continue;
    for (const step of wf.steps) {
      for (const m of step.text.matchAll(/`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`/g)) {
        const name = m[1] as string;
        if (known.has(name)) continue;
        known.add(name);
        const side = step.actor === "customer" ? "customer" : "agent";
        const fn: ManualFunction = { name, document: wf.provenance.document, file: fileOf(wf.provenance.document, wf.provenance.version), line: step.provenance.line_start, access: "write", side, description: step.text, text: step.text, params: [], returns: null, refusals: [] };
        out.push({ name, description: step.text.replace(/`/g, ""), side, access: "write", params: {}, preconditions: [], effects: [], result: null, rules: [], table: null, fn, clauses: new Map() });
        review.push({ kind: "operation", subject: `operation ${name}`, what: `procedure ${wf.id} names ${name}, which no tool manual in force documents: give its parameters, preconditions, effects and result (or document it in the tool manual)`, where: [{ file: fn.file, line: fn.line, text: step.text }] });
      }
    }
  }
  return out;
}

/** Scheduled jobs ("Scheduled jobs" tables, "… N minutes after …" sentences): review items, never drafted. */
function eventItems(manuals: readonly ManualInput[], functions: readonly ManualFunction[], review: Pending[]): void {
  for (const m of manuals) {
    for (const s of m.outline.sections) {
      for (const b of s.blocks) {
        if (b.type !== "table" || !/^(?:job|event|schedule)/i.test(b.header[0]?.text ?? "")) continue;
        for (const r of b.rows) review.push({ kind: "event", subject: `event ${r.cells[0]?.text ?? ""}`, what: `scheduled job "${r.cells[0]?.text}" (${r.cells[1]?.text ?? ""}): add an event (at / after) with its effects`, where: [{ file: m.file, line: r.line, text: r.cells.map((c) => c.text).join(" | ") }] });
      }
    }
  }
  for (const f of functions) {
    const after = /[^.]*\b(\d+) minutes after\b[^.]*\./.exec(f.text) ?? /[^.]*\bturns to [a-z_]+ at\b[^.]*\./.exec(f.text);
    if (after) review.push({ kind: "event", subject: `operation ${f.name}`, what: `"${after[0].trim()}": add the scheduled event it describes (after: { operation: ${f.name}, delay: … })`, where: [{ file: f.file, line: f.line, text: after[0].trim() }] });
  }
}

function summary(world: { tables: Array<Record<string, unknown>>; operations: Array<Record<string, unknown>>; rules: FormalRule[] }, items: number): WorldReview["summary"] {
  const ops = world.operations;
  const count = (o: Record<string, unknown>, k: string) => (Array.isArray(o[k]) ? (o[k] as unknown[]).length : 0);
  return {
    tables: world.tables.length,
    columns: world.tables.reduce((n, t) => n + count(t, "columns"), 0),
    operations: ops.length,
    parameters: ops.reduce((n, o) => n + Object.keys(o.params as object).length, 0),
    preconditions: ops.reduce((n, o) => n + count(o, "preconditions") + (o.transition ? 1 : 0), 0),
    effects: ops.reduce((n, o) => n + count(o, "effects") + (o.transition ? 1 : 0), 0),
    rules: world.rules.length,
    review_items: items,
  };
}

/** Draft the world of the domain folder `dir` from its documents (see the module comment). */
export function draftWorldDeterministic(dir: string): WorldDraft {
  const { loaded, sop } = documentsOnly(dir);
  const card = loaded.card as NonNullable<LoadedDomain["card"]>;
  const fileOf = (id: string, version: string) => sop.documents.find((d) => d.id === id && d.version === version)?.file ?? id;
  const manuals: ManualInput[] = sop.documents
    .filter((d) => d.kind === "tool_manual" && d.status === "current")
    .map((d) => {
      const text = loaded.documents.find((x) => x.file === d.file)?.text ?? "";
      return { document: d.id, file: d.file, text, outline: outlineText(text) };
    });
  const review: Pending[] = [];
  if (manuals.length === 0) review.push({ kind: "operation", subject: `domain ${card.id}`, what: "no tool manual is in force: the drafter reads operations from tool manuals (kind: tool_manual); only operations named by procedures were drafted", where: [] });
  const functions = readManualFunctions(manuals);
  const conventions = readConventions(manuals);
  const set: TableSet = draftTables(functions, conventions, card.customer);
  readStateTables(manuals.flatMap((m) => m.outline.sections.flatMap((s) => s.blocks.filter((b) => b.type === "table"))), set);
  const ops = draftOperations(functions, set, conventions.minuteZero, review);
  // "… it is cleared by `fn`": fn empties that column of its row.
  for (const c of manuals.flatMap((m) => clearedBy(m.text))) {
    const op = ops.find((o) => o.name === c.fn && o.table && set.column(o.table, c.column));
    if (!op?.table || !(op.table.key in op.params)) continue;
    const own = op.effects.find((e) => e.update === op.table?.name && e.set);
    if (own?.set) own.set[c.column] ??= null;
    else op.effects.push({ update: op.table.name, set: { [c.column]: null } });
  }
  const known = new Set([...ops.map((o) => o.name), ...set.tables.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]), ...ops.flatMap((o) => Object.keys(o.params))]);
  ops.push(...procedureOperations(sop, known, fileOf, review));
  draftApprovals(ops, review);
  const rules = draftRules(ops, sop.rules, review, fileOf);
  eventItems(manuals, functions, review);
  if (set.tables.length === 0) review.push({ kind: "table", subject: `domain ${card.id}`, what: "no table could be drafted (no `<thing>_id` parameter, no get_/list_ function): add the tables", where: [] });
  const customer = set.customer ?? set.tables[0] ?? null;
  if (!set.customer) review.push({ kind: "table", subject: "customer_table", what: `no table is the card's customer ("${card.customer}"): set customer_table to the table of the customers`, where: [{ file: loaded.cardFile ?? "domain.yaml", line: null, text: card.customer }] });
  for (const t of set.tables) {
    review.unshift({ kind: "rows", subject: `table ${t.name}`, what: `add fixed rows: the task designer works on named rows (one per situation a procedure can meet), and generated rows for volume`, where: [{ file: t.file, line: t.line, text: `${t.name} (${t.key})` }] });
  }
  const tables = set.tables.length > 0 ? set.tables.map(tableData) : [{ name: "customers", description: "Customers (no table could be drafted).", primary_key: "customer_id", columns: [{ name: "customer_id", type: "text", description: "Customer reference." }], rows: [] }];
  const world = {
    domain: card.id,
    customer_table: customer?.name ?? "customers",
    tables,
    operations: ops.filter((o) => isIdentifier(o.name)).map(operationData),
    rules,
  };
  const items: ReviewItem[] = review.map((r, i) => ({ id: `W${String(i + 1).padStart(3, "0")}`, ...r }));
  const above = new Map<string, string[]>();
  for (const it of items) {
    const [what, name] = it.subject.split(" ");
    const key = what === "table" ? `tables.${name}` : what === "operation" ? `operations.${name}` : null;
    if (key) above.set(key, [...(above.get(key) ?? []), `REVIEW ${it.id}: ${it.what}`]);
  }
  const yaml = renderWorld(world, {
    header: [
      `Drafted by synth draft-world (deterministic) from the documents of ${card.id}: a draft, not an authored world.`,
      `Work through sop/${card.id}/world-review.json (${items.length} items; each is also a REVIEW comment below).`,
    ],
    above,
  });
  return { world, yaml, sop, review: { domain: card.id, strategy: "deterministic", model: null, world_written: true, summary: summary(world, items.length), items, llm: null } };
}
