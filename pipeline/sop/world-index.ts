import type { FoundryIssue } from "../core/errors.js";
import { parseYaml } from "../core/yaml-source.js";
import { validateAgainst } from "../core/schema-issues.js";
import { WorldModel, type FormalRule, type Operation } from "../schemas/world-model.js";
import { WorldSource } from "../schemas/world-source.js";
import { expandWorld } from "../world/expand-world.js";

/** What the SOP extractor needs to know about a domain's world.yaml. */
export interface WorldIndex {
  world: WorldModel;
  operations: ReadonlyMap<string, Operation>;
  tables: ReadonlySet<string>;
  /**
   * Snake_case names of the world that are not operations: tables, columns, parameters, events,
   * proposal kinds, enumerated and fixed values, SQL string literals. Inline code naming one of
   * these is never taken for an unknown operation.
   */
  otherNames: ReadonlySet<string>;
  /** Formal rules by `document\u0000clause`. */
  rulesByClause: ReadonlyMap<string, FormalRule[]>;
}

const TABLE_IN_SQL = /\b(?:from|join|into|update)\s+([a-z_][a-z0-9_]*)/gi;
const SQL_STRING = /'([a-z][a-z0-9_]*)'/g;

/** Tables an SQL text reads or writes. */
export function tablesInSql(sql: string): string[] {
  return [...sql.matchAll(TABLE_IN_SQL)].map((m) => (m[1] as string).toLowerCase());
}

function addWords(set: Set<string>, value: unknown): void {
  if (typeof value === "string" && /^[a-z][a-z0-9_]*$/.test(value)) set.add(value);
}

/** Index a validated world model. */
export function indexWorld(world: WorldModel): WorldIndex {
  const operations = new Map(world.operations.map((o) => [o.name, o]));
  const tables = new Set(world.tables.map((t) => t.name));
  const other = new Set<string>(tables);
  const sqls: string[] = [];
  for (const t of world.tables) {
    for (const c of t.columns) {
      other.add(c.name);
      for (const w of c.description.split(/[|,/]/)) addWords(other, w.trim());
    }
    for (const row of t.rows) for (const v of Object.values(row)) addWords(other, v);
    for (const g of Object.values(t.generate?.fields ?? {})) if ("choice" in g) for (const v of g.choice) addWords(other, v);
  }
  for (const o of world.operations) {
    for (const [name, p] of Object.entries(o.params)) {
      other.add(name);
      for (const v of p.enum ?? []) addWords(other, v);
    }
    for (const b of [o.proposes, o.requires_approval]) if (b) other.add(b.kind);
    if (o.approves) other.add(o.approves);
    sqls.push(...o.preconditions.map((p) => p.sql), ...o.effects.map((e) => e.sql), ...(o.result ? [o.result.sql] : []));
    for (const p of o.preconditions) other.add(p.id);
  }
  for (const e of world.events) {
    other.add(e.id);
    sqls.push(...e.effects.map((x) => x.sql));
  }
  for (const s of sqls) for (const m of s.matchAll(SQL_STRING)) other.add(m[1] as string);
  for (const name of operations.keys()) other.delete(name);
  const rulesByClause = new Map<string, FormalRule[]>();
  for (const r of world.rules) {
    const key = `${r.clause.document}\u0000${r.clause.clause}`;
    rulesByClause.set(key, [...(rulesByClause.get(key) ?? []), r]);
  }
  return { world, operations, tables, otherNames: other, rulesByClause };
}

/** Tables an operation touches (its preconditions, effects and result). */
export function tablesOfOperation(op: Operation): string[] {
  const sqls = [...op.preconditions.map((p) => p.sql), ...op.effects.map((e) => e.sql), ...(op.result ? [op.result.sql] : [])];
  return [...new Set(sqls.flatMap(tablesInSql))].sort();
}

/**
 * Parse and validate world.yaml text. Problems (syntax, schema) come back as issues with the
 * file and line; the SOP extractor then works without a world (no operation checks).
 */
export function readWorld(text: string, file = "world.yaml"): { index: WorldIndex | null; issues: FoundryIssue[]; lineOf: (path: ReadonlyArray<PropertyKey>) => number | undefined } {
  const parsed = parseYaml(text, file);
  if (!parsed.source) return { index: null, issues: parsed.issues.map((i) => ({ ...i, code: "SOP_WORLD_INVALID" })), lineOf: () => undefined };
  const lineOf = parsed.source.lineOf;
  const r = validateAgainst(WorldSource, parsed.source.data, { file, code: "SOP_WORLD_INVALID", lineOf });
  if (!r.ok) return { index: null, issues: r.issues.map((i) => ({ ...i, code: "SOP_WORLD_INVALID" })), lineOf };
  // Shorthands become the SQL the runtime runs (the names the SOP may mention are read from it).
  const expanded = expandWorld(r.value);
  const model = expanded.problems.length === 0 ? WorldModel.safeParse(expanded.model) : null;
  if (!model?.success) return { index: null, issues: [{ code: "SOP_WORLD_INVALID", message: "the world's shorthands do not expand; run synth check-sources", file }], lineOf };
  return { index: indexWorld(model.data), issues: [], lineOf };
}

/** True for names that look like an operation: snake_case with at least one underscore. */
export function looksLikeOperation(name: string): boolean {
  return /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(name);
}
