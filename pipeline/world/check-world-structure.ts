// The English locale module: the package root loads every locale. Method names are the same in all.
import { faker } from "@faker-js/faker/locale/en";
import type { Column, ScheduledEvent, Table, WorldModel } from "../schemas/index.js";
import { ProblemList, type PathSegment } from "./world-problems.js";
import { RESERVED_PARAMS, isStandardTool } from "./tool-names.js";

/**
 * Semantic checks of a world model that need no database: names, references between tables,
 * fixed rows, generators, approvals, formal rules and the graph of scheduled events.
 */

const isReservedTable = (name: string) => name.startsWith("_") || name.startsWith("sqlite_");

/** Run every structural check; problems go into `out`. */
export function checkWorldStructure(world: WorldModel, out: ProblemList): void {
  const tables = new Map<string, Table>();
  world.tables.forEach((t, i) => {
    if (tables.has(t.name)) out.add("WORLD_DUPLICATE", `table "${t.name}" is declared twice`, ["tables", i, "name"], t.name);
    else tables.set(t.name, t);
    if (isReservedTable(t.name)) out.add("WORLD_RESERVED_NAME", `table names starting with "_" or "sqlite_" are reserved for the runtime`, ["tables", i, "name"], t.name);
  });
  const ruleIds = new Set(world.rules.map((r) => r.id));

  if (!tables.has(world.customer_table)) {
    out.add("WORLD_UNKNOWN_TABLE", `customer_table names unknown table "${world.customer_table}"`, ["customer_table"], world.customer_table);
  }
  world.tables.forEach((t, i) => checkTable(t, i, tables, out));
  checkGeneratorOrder(world, out);
  checkOperations(world, ruleIds, out);
  checkEvents(world.events, ["events"], new Set(world.operations.map((o) => o.name)), new Set(), ruleIds, out);
  checkRules(world, tables, out);
  checkOrderedInserts(world, out);
}

function columnOf(tables: Map<string, Table>, ref: string): { table?: Table; column?: Column } {
  const [tname, cname] = ref.split(".") as [string, string];
  const table = tables.get(tname);
  return { table, column: table?.columns.find((c) => c.name === cname) };
}

function checkRef(ref: string, path: PathSegment[], what: string, tables: Map<string, Table>, out: ProblemList): void {
  const { table, column } = columnOf(tables, ref);
  if (!table) out.add("WORLD_UNKNOWN_TABLE", `${what} names unknown table "${ref.split(".")[0]}"`, path, ref);
  else if (!column) out.add("WORLD_UNKNOWN_COLUMN", `${what} names unknown column "${ref}"`, path, ref);
}

/** Whether a fixed-row value fits a column type (booleans may be given as true/false or 0/1). */
function fitsType(col: Column, v: unknown): boolean {
  if (v === null) return col.nullable;
  switch (col.type) {
    case "text":
      return typeof v === "string";
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "real":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean" || v === 0 || v === 1;
  }
}

function checkTable(t: Table, i: number, tables: Map<string, Table>, out: ProblemList): void {
  const base: PathSegment[] = ["tables", i];
  const cols = new Map<string, Column>();
  t.columns.forEach((c, j) => {
    if (cols.has(c.name)) out.add("WORLD_DUPLICATE", `column "${c.name}" is declared twice in table "${t.name}"`, [...base, "columns", j, "name"], c.name);
    cols.set(c.name, c);
    if (c.references) checkRef(c.references, [...base, "columns", j, "references"], `column "${t.name}.${c.name}" references`, tables, out);
  });
  if (!cols.has(t.primary_key)) out.add("WORLD_UNKNOWN_COLUMN", `primary_key names unknown column "${t.primary_key}" of table "${t.name}"`, [...base, "primary_key"], t.primary_key);
  t.key_columns?.forEach((k, j) => {
    if (!cols.has(k)) out.add("WORLD_UNKNOWN_COLUMN", `the composite key names unknown column "${k}" of table "${t.name}"`, [...base, "key_columns", j], k);
    else if (cols.get(k)?.nullable) out.add("WORLD_KEY_NULLABLE", `key column "${t.name}.${k}" must not be nullable`, [...base, "key_columns", j], k);
  });
  if (t.owner_column !== undefined && !cols.has(t.owner_column)) {
    out.add("WORLD_UNKNOWN_COLUMN", `owner_column names unknown column "${t.owner_column}" of table "${t.name}"`, [...base, "owner_column"], t.owner_column);
  }
  if (t.ordered) checkOrdered(t, cols, base, out);
  // The key of a row: its primary key, or the values of a composite key's columns (the runtime computes the row-key column).
  const keyCols = t.key_columns ?? [t.primary_key];
  const generated = t.key_columns ? t.primary_key : null;

  const keys = new Set<string>();
  t.rows.forEach((row, r) => {
    const rp: PathSegment[] = [...base, "rows", r];
    for (const [k, v] of Object.entries(row)) {
      const col = cols.get(k);
      if (!col) out.add("WORLD_ROW_UNKNOWN_COLUMN", `fixed row has unknown column "${k}" (table "${t.name}")`, [...rp, k], k);
      else if (k === generated) out.add("WORLD_ROW_GENERATED", `"${t.name}.${k}" is computed by the runtime from ${keyCols.join(", ")}; leave it out`, [...rp, k], v);
      else if (!fitsType(col, v)) out.add("WORLD_ROW_TYPE", `value of "${t.name}.${k}" does not fit column type ${col.type}${col.nullable ? "" : " (not nullable)"}`, [...rp, k], v);
    }
    const parts = keyCols.map((k) => row[k]);
    const key = keyCols.length === 1 ? parts[0] : parts;
    if (parts.some((p) => p === undefined || p === null)) {
      out.add("WORLD_ROW_MISSING_KEY", `fixed row of table "${t.name}" has no ${keyCols.length === 1 ? "primary key" : "value for key column"} "${keyCols.filter((k) => row[k] === undefined || row[k] === null).join('", "')}"`, rp);
    } else if (keys.has(JSON.stringify(parts))) {
      out.add("WORLD_DUPLICATE", `fixed rows of table "${t.name}" repeat ${keyCols.length === 1 ? "primary key" : "key"} ${JSON.stringify(key)}`, [...rp, keyCols[0] as string], key);
    } else keys.add(JSON.stringify(parts));
    for (const c of t.columns) {
      if (!c.nullable && !keyCols.includes(c.name) && c.name !== generated && !(c.name in row)) {
        out.add("WORLD_ROW_MISSING_COLUMN", `fixed row of table "${t.name}" has no value for required column "${c.name}"`, rp, c.name);
      }
    }
  });

  if (!t.generate) return;
  const gp: PathSegment[] = [...base, "generate", "fields"];
  for (const [field, gen] of Object.entries(t.generate.fields)) {
    const fp = [...gp, field];
    if (!cols.has(field)) out.add("WORLD_UNKNOWN_COLUMN", `generator for unknown column "${field}" of table "${t.name}"`, fp, field);
    if ("ref" in gen) checkRef(gen.ref, [...fp, "ref"], `generator "${t.name}.${field}" ref`, tables, out);
    if ("choice" in gen && gen.weights && gen.weights.length !== gen.choice.length) {
      out.add("WORLD_GENERATOR", `weights has ${gen.weights.length} entries but choice has ${gen.choice.length}`, [...fp, "weights"], gen.weights);
    }
    if ("int" in gen && gen.int[0] > gen.int[1]) out.add("WORLD_GENERATOR", `int range [${gen.int[0]}, ${gen.int[1]}] is empty`, [...fp, "int"], gen.int);
    if ("real" in gen && gen.real[0] > gen.real[1]) out.add("WORLD_GENERATOR", `real range [${gen.real[0]}, ${gen.real[1]}] is empty`, [...fp, "real"], gen.real);
    if ("seq" in gen && !/\{n(:\d+)?\}/.test(gen.seq)) out.add("WORLD_GENERATOR", `seq pattern has no {n} or {n:width} placeholder`, [...fp, "seq"], gen.seq);
    if ("faker" in gen && !fakerMethodExists(gen.faker)) out.add("WORLD_GENERATOR", `faker has no method "${gen.faker}"`, [...fp, "faker"], gen.faker);
  }
  if (generated !== null && generated in t.generate.fields) out.add("WORLD_GENERATOR", `"${t.name}.${generated}" is computed by the runtime from ${keyCols.join(", ")}; give no generator`, [...gp, generated], generated);
  if (t.generate.count > 0) {
    for (const c of t.columns) {
      if (c.name === generated || c.name === t.ordered?.position) continue; // the runtime fills both
      if (!(c.name in t.generate.fields) && (!c.nullable || c.name === t.primary_key)) {
        out.add("WORLD_GENERATOR_MISSING", `column "${t.name}.${c.name}" is not nullable and has no generator`, [...base, "generate", "fields"], c.name);
      }
    }
  }
}

/** An ordered table: parent and position columns exist, positions are whole numbers that are always there. */
function checkOrdered(t: Table, cols: Map<string, Column>, base: PathSegment[], out: ProblemList): void {
  const { parent, position } = t.ordered as { parent: string; position: string };
  if (!cols.has(parent)) out.add("WORLD_UNKNOWN_COLUMN", `ordered.parent names unknown column "${parent}" of table "${t.name}"`, [...base, "ordered", "parent"], parent);
  const pos = cols.get(position);
  if (!pos) out.add("WORLD_UNKNOWN_COLUMN", `ordered.position names unknown column "${position}" of table "${t.name}"`, [...base, "ordered", "position"], position);
  else if (pos.type !== "integer" || pos.nullable) out.add("WORLD_ORDERED", `position column "${t.name}.${position}" must be a non-nullable integer`, [...base, "ordered", "position"], position);
}

const INSERT_INTO = /^\s*INSERT\s+(?:OR\s+\w+\s+)?INTO\s+"?([a-z_][a-z0-9_]*)"?\s*\(([^)]*)\)/i;

/**
 * An INSERT into an ordered table must set the position column: the insert shorthand numbers it
 * (the next position of the parent); raw SQL has to write that itself.
 */
function checkOrderedInserts(world: WorldModel, out: ProblemList): void {
  const ordered = new Map(world.tables.filter((t) => t.ordered).map((t) => [t.name, t.ordered as { parent: string; position: string }]));
  if (ordered.size === 0) return;
  const check = (sql: string, path: PathSegment[]) => {
    const m = INSERT_INTO.exec(sql);
    const o = m ? ordered.get((m[1] as string).toLowerCase()) : undefined;
    if (!m || !o) return;
    const cols = (m[2] as string).split(",").map((c) => c.trim().replace(/"/g, "").toLowerCase());
    if (!cols.includes(o.position)) out.add("WORLD_ORDERED_INSERT", `an INSERT into ordered table "${m[1]}" must set its position column "${o.position}" (the insert shorthand numbers it for you)`, path, sql);
  };
  world.operations.forEach((op, i) => op.effects.forEach((e, j) => check(e.sql, ["operations", i, "effects", j, "sql"])));
  world.events.forEach((ev, i) => ev.effects.forEach((e, j) => check(e.sql, ["events", i, "effects", j, "sql"])));
}

/** Whether `module.method` names a function of the faker API. */
export function fakerMethodExists(path: string): boolean {
  const [mod, method] = path.split(".") as [string, string];
  const m = (faker as unknown as Record<string, Record<string, unknown> | undefined>)[mod];
  return typeof m === "object" && m !== null && typeof m[method] === "function";
}

/** Tables whose generators `ref` each other in a cycle can never be generated. */
function checkGeneratorOrder(world: WorldModel, out: ProblemList): void {
  const deps = new Map<string, Set<string>>();
  for (const t of world.tables) {
    const d = new Set<string>();
    for (const gen of Object.values(t.generate?.fields ?? {})) {
      if ("ref" in gen) {
        const target = gen.ref.split(".")[0] as string;
        if (target !== t.name) d.add(target);
      }
    }
    deps.set(t.name, d);
  }
  const cycle = findCycle([...deps.keys()], (n) => [...(deps.get(n) ?? [])].filter((x) => deps.has(x)));
  if (cycle) {
    const i = world.tables.findIndex((t) => t.name === cycle[0]);
    out.add("WORLD_GENERATOR_CYCLE", `generators of tables ref each other in a cycle: ${cycle.join(" → ")}`, ["tables", i, "generate"], cycle);
  }
}

function checkOperations(world: WorldModel, ruleIds: Set<string>, out: ProblemList): void {
  const names = new Set<string>();
  const proposedTerms = new Map<string, string[]>();
  const customerKinds = new Set<string>();
  for (const op of world.operations) {
    if (op.proposes && !proposedTerms.has(op.proposes.kind)) proposedTerms.set(op.proposes.kind, [...op.proposes.terms].sort());
    if (op.approves && op.side === "customer") customerKinds.add(op.approves);
  }
  world.operations.forEach((op, i) => {
    const base: PathSegment[] = ["operations", i];
    if (names.has(op.name)) out.add("WORLD_DUPLICATE", `operation "${op.name}" is declared twice`, [...base, "name"], op.name);
    names.add(op.name);
    if (isStandardTool(op.name)) out.add("WORLD_RESERVED_NAME", `"${op.name}" is the name of a standard tool`, [...base, "name"], op.name);

    for (const [pname, p] of Object.entries(op.params)) {
      const pp: PathSegment[] = [...base, "params", pname];
      if ((RESERVED_PARAMS as readonly string[]).includes(pname)) out.add("WORLD_RESERVED_NAME", `parameter name "${pname}" is reserved (bound to :${pname} by the runtime)`, pp, pname);
      if (!/^[a-z_][a-z0-9_]*$/.test(pname)) out.add("WORLD_PARAM", `parameter name "${pname}" must be a lowercase identifier`, pp, pname);
      if (p.pattern !== undefined) {
        try {
          new RegExp(p.pattern, "u");
        } catch (e) {
          out.add("WORLD_PARAM", `pattern is not a valid regular expression: ${(e as Error).message}`, [...pp, "pattern"], p.pattern);
        }
        if (p.type !== "string") out.add("WORLD_PARAM", `pattern only applies to string parameters`, [...pp, "pattern"], p.pattern);
      }
      if (p.minimum !== undefined && p.maximum !== undefined && p.minimum > p.maximum) {
        out.add("WORLD_PARAM", `minimum ${p.minimum} is above maximum ${p.maximum}`, [...pp, "minimum"], p.minimum);
      }
      p.enum?.forEach((v, k) => {
        const ok = p.type === "string" ? typeof v === "string" : p.type === "boolean" ? false : typeof v === "number" && (p.type === "number" || Number.isInteger(v));
        if (!ok) out.add("WORLD_PARAM", `enum value does not fit parameter type ${p.type}`, [...pp, "enum", k], v);
      });
    }

    for (const [key, binding] of [["proposes", op.proposes], ["requires_approval", op.requires_approval]] as const) {
      if (!binding) continue;
      binding.terms.forEach((term, k) => {
        if (!(term in op.params)) out.add("WORLD_APPROVAL_TERM", `${key} term "${term}" is not a parameter of "${op.name}"`, [...base, key, "terms", k], term);
      });
    }
    if (op.approves !== undefined) {
      if (!("proposal_id" in op.params)) out.add("WORLD_APPROVAL", `operation "${op.name}" approves "${op.approves}" but has no proposal_id parameter`, [...base, "approves"], op.approves);
      if (!proposedTerms.has(op.approves)) out.add("WORLD_APPROVAL", `no operation proposes kind "${op.approves}"`, [...base, "approves"], op.approves);
      if (op.side === "agent" && customerKinds.has(op.approves)) {
        out.add("WORLD_APPROVAL", `kind "${op.approves}" is approved by the customer; an agent-side operation cannot approve it`, [...base, "approves"], op.approves);
      }
    }
    if (op.requires_approval) {
      const terms = proposedTerms.get(op.requires_approval.kind);
      if (!terms) out.add("WORLD_APPROVAL", `no operation proposes kind "${op.requires_approval.kind}"`, [...base, "requires_approval", "kind"], op.requires_approval.kind);
      else if (terms.join(",") !== [...op.requires_approval.terms].sort().join(",")) {
        out.add("WORLD_APPROVAL", `terms [${op.requires_approval.terms.join(", ")}] differ from the proposed terms [${terms.join(", ")}]: no proposal could ever match`, [...base, "requires_approval", "terms"], op.requires_approval.terms);
      }
    }
    if (op.access === "read" && (op.effects.length > 0 || op.proposes || op.approves !== undefined || op.requires_approval)) {
      out.add("WORLD_READ_WRITES", `read operation "${op.name}" has effects or approval bindings; make it access: write`, [...base, "access"], op.access);
    }
    op.rules.forEach((r, k) => {
      if (!ruleIds.has(r)) out.add("WORLD_UNKNOWN_RULE", `operation "${op.name}" names unknown rule "${r}"`, [...base, "rules", k], r);
    });
    op.preconditions.forEach((pc, k) => {
      if (pc.rule !== undefined && !ruleIds.has(pc.rule)) out.add("WORLD_UNKNOWN_RULE", `precondition "${pc.id}" names unknown rule "${pc.rule}"`, [...base, "preconditions", k, "rule"], pc.rule);
    });
  });
}

/**
 * Scheduled events: ids unique, `after` names a known operation or event, no cycles among `after.event`.
 * `outerEvents` are ids declared elsewhere (the world's, when checking a task's events).
 */
export function checkEvents(
  events: readonly ScheduledEvent[],
  base: PathSegment[],
  operations: ReadonlySet<string>,
  outerEvents: ReadonlySet<ScheduledEvent>,
  ruleIds: ReadonlySet<string> | null,
  out: ProblemList,
): void {
  const all = new Map<string, ScheduledEvent>();
  for (const e of outerEvents) all.set(e.id, e);
  events.forEach((e, i) => {
    if (all.has(e.id)) out.add("WORLD_DUPLICATE", `event "${e.id}" is declared twice`, [...base, i, "id"], e.id);
    else all.set(e.id, e);
  });
  events.forEach((e, i) => {
    if (e.after?.operation !== undefined && !operations.has(e.after.operation)) {
      out.add("WORLD_EVENT_UNKNOWN_OPERATION", `event "${e.id}" fires after unknown operation "${e.after.operation}"`, [...base, i, "after", "operation"], e.after.operation);
    }
    if (e.after?.event !== undefined && !all.has(e.after.event)) {
      out.add("WORLD_EVENT_UNKNOWN_EVENT", `event "${e.id}" fires after unknown event "${e.after.event}"`, [...base, i, "after", "event"], e.after.event);
    }
    if (e.after && (e.after.operation === undefined) === (e.after.event === undefined)) {
      out.add("WORLD_EVENT_AFTER", `event "${e.id}": after needs exactly one of operation or event`, [...base, i, "after"]);
    }
    if (ruleIds && e.rule !== undefined && !ruleIds.has(e.rule)) out.add("WORLD_UNKNOWN_RULE", `event "${e.id}" names unknown rule "${e.rule}"`, [...base, i, "rule"], e.rule);
  });
  // An event waits for the event it fires after: follow those edges looking for a loop.
  const next = (id: string) => {
    const ev = all.get(id)?.after?.event;
    return ev !== undefined && all.has(ev) ? [ev] : [];
  };
  const own = events.map((e) => e.id);
  const reported = new Set<string>();
  for (const id of own) {
    if (reported.has(id)) continue;
    const cycle = findCycle([id], next);
    if (!cycle) continue;
    cycle.forEach((c) => reported.add(c));
    const i = events.findIndex((e) => cycle.includes(e.id));
    out.add("WORLD_EVENT_CYCLE", `scheduled events form a cycle: ${cycle.join(" → ")}`, [...base, i, "after", "event"], cycle);
  }
}

/** First cycle reachable from `starts` as a node list closing on its first node, or null. */
function findCycle(starts: readonly string[], edges: (n: string) => string[]): string[] | null {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    state.set(n, 1);
    stack.push(n);
    for (const m of edges(n)) {
      if (state.get(m) === 1) return [...stack.slice(stack.indexOf(m)), m];
      if (!state.has(m)) {
        const c = visit(m);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return null;
  };
  for (const s of starts) {
    if (!state.has(s)) {
      const c = visit(s);
      if (c) return c;
    }
  }
  return null;
}

function checkRules(world: WorldModel, tables: Map<string, Table>, out: ProblemList): void {
  const ids = new Set<string>();
  world.rules.forEach((r, i) => {
    const base: PathSegment[] = ["rules", i];
    if (ids.has(r.id)) out.add("WORLD_DUPLICATE", `rule "${r.id}" is declared twice`, [...base, "id"], r.id);
    ids.add(r.id);
    if (r.kind === "invariant" && !r.invariant) out.add("WORLD_RULE_INVARIANT", `invariant rule "${r.id}" has no invariant`, [...base, "kind"], r.kind);
    if (!r.invariant) return;
    const table = tables.get(r.invariant.table);
    if (!table) {
      out.add("WORLD_UNKNOWN_TABLE", `rule "${r.id}" names unknown table "${r.invariant.table}"`, [...base, "invariant", "table"], r.invariant.table);
      return;
    }
    const cols = new Set(table.columns.map((c) => c.name));
    const total = r.invariant.total;
    if (total) {
      const tp: PathSegment[] = [...base, "invariant", "total"];
      for (const [c, at] of [[total.column, [...tp, "column"]], ...total.group_by.map((g, k) => [g, [...tp, "group_by", k]] as const)] as Array<[string, PathSegment[]]>) {
        if (!cols.has(c)) out.add("WORLD_UNKNOWN_COLUMN", `rule "${r.id}" names unknown column "${table.name}.${c}"`, at, c);
      }
      if (total.limit) {
        const lt = tables.get(total.limit.table);
        if (!lt) out.add("WORLD_UNKNOWN_TABLE", `rule "${r.id}" names unknown table "${total.limit.table}"`, [...tp, "limit", "table"], total.limit.table);
        else if (!lt.columns.some((c) => c.name === total.limit?.column)) out.add("WORLD_UNKNOWN_COLUMN", `rule "${r.id}" names unknown column "${lt.name}.${total.limit.column}"`, [...tp, "limit", "column"], total.limit.column);
        if (total.group_by.length !== 1) out.add("WORLD_RULE_INVARIANT", `rule "${r.id}": a total bounded by ${total.limit.table}.${total.limit.column} groups by exactly one column (the key of that table's row), got ${total.group_by.length}`, [...tp, "group_by"], total.group_by);
      }
    }
    for (const part of ["where", "require"] as const) {
      r.invariant[part].forEach((pred, k) => {
        const pp: PathSegment[] = [...base, "invariant", part, k];
        if (!cols.has(pred.column)) out.add("WORLD_UNKNOWN_COLUMN", `rule "${r.id}" names unknown column "${table.name}.${pred.column}"`, [...pp, "column"], pred.column);
        if (pred.other_column !== undefined && !cols.has(pred.other_column)) {
          out.add("WORLD_UNKNOWN_COLUMN", `rule "${r.id}" names unknown column "${table.name}.${pred.other_column}"`, [...pp, "other_column"], pred.other_column);
        }
      });
    }
  });
}
