import type { Column, Table, WorldModel } from "../schemas/index.js";

/**
 * SQL that turns a world model into a database schema: one STRICT table per world table, an index
 * per reference and owner column, and the built-in table `_proposals` (proposals recorded by
 * `proposes` operations, approved by `approves` operations and consumed by `requires_approval`
 * operations; part of the state, so changes to it are row changes). Built-in names start with an
 * underscore so they never clash with a world table and the query tool can hide them. Change
 * capture needs no schema: its triggers are TEMP triggers of each connection (changes.ts).
 */

export const PROPOSALS_TABLE = "_proposals";

const SQL_TYPE: Record<Column["type"], string> = { text: "TEXT", integer: "INTEGER", real: "REAL", boolean: "INTEGER" };

/** Double-quote an identifier (world identifiers are already restricted to `[a-z_][a-z0-9_]*`). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Single-quote a string literal. */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * CREATE TABLE for one world table: typed STRICT columns, NOT NULL unless nullable, the primary key.
 * A composite key (`key_columns`) is the table's PRIMARY KEY, and its row-key column (`primary_key`)
 * is generated from it: the key values as a JSON array, unique, what traces and checks address.
 */
export function createTableSql(table: Table): string {
  const composite = table.key_columns;
  const cols = table.columns.map((c) => {
    let def = `${ident(c.name)} ${SQL_TYPE[c.type]}`;
    if (composite && c.name === table.primary_key) return `${def} GENERATED ALWAYS AS (json_array(${composite.map(ident).join(", ")})) STORED NOT NULL UNIQUE`;
    if (!composite && c.name === table.primary_key) def += " PRIMARY KEY";
    if (!c.nullable) def += " NOT NULL";
    if (c.type === "boolean") def += ` CHECK (${ident(c.name)} IN (0, 1))`;
    return def;
  });
  if (composite) cols.push(`PRIMARY KEY (${composite.map(ident).join(", ")})`);
  // Foreign keys are documentation of the model (`references`), not enforced: generated data and
  // task overlays are inserted in an order that constraint checking would reject.
  return `CREATE TABLE ${ident(table.name)} (${cols.join(", ")}) STRICT`;
}

/** Columns a row is inserted with: all but a composite key's generated row-key column. */
export function insertableColumns(table: Table): Table["columns"] {
  return table.key_columns ? table.columns.filter((c) => c.name !== table.primary_key) : table.columns;
}

export const PROPOSALS_DDL = `CREATE TABLE ${PROPOSALS_TABLE} (
  proposal_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  operation TEXT NOT NULL,
  terms_json TEXT NOT NULL,
  terms_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'consumed')),
  created_at INTEGER NOT NULL,
  approved_at INTEGER,
  consumed_at INTEGER,
  actor TEXT NOT NULL,
  approved_by TEXT
) STRICT`;

/** Columns of `_proposals`, in declaration order. */
export const PROPOSAL_COLUMNS = [
  "proposal_id",
  "kind",
  "operation",
  "terms_json",
  "terms_hash",
  "status",
  "created_at",
  "approved_at",
  "consumed_at",
  "actor",
  "approved_by",
] as const;

/** The tables the state consists of (world tables plus `_proposals`), with their key and columns. */
export interface StateTable {
  name: string;
  primaryKey: string;
  columns: string[];
}

/** World tables in declaration order, then `_proposals`. */
export function stateTables(world: WorldModel): StateTable[] {
  const out: StateTable[] = world.tables.map((t) => ({ name: t.name, primaryKey: t.primary_key, columns: t.columns.map((c) => c.name) }));
  out.push({ name: PROPOSALS_TABLE, primaryKey: "proposal_id", columns: [...PROPOSAL_COLUMNS] });
  return out;
}

/**
 * An index on every `references` column and owner column: the lookups operations make ("payments of
 * this client") would otherwise scan the table on every call. Named `_idx_<table>_<column>`.
 */
export function indexesSql(table: Table): string[] {
  const cols = new Set<string>();
  for (const c of table.columns) if (c.references && c.name !== table.primary_key) cols.add(c.name);
  if (table.owner_column && table.owner_column !== table.primary_key) cols.add(table.owner_column);
  return [...cols].map((c) => `CREATE INDEX ${ident(`_idx_${table.name}_${c}`)} ON ${ident(table.name)} (${ident(c)})`);
}

/** The whole schema: what a state is built with and what statements are prepared against when a world is validated. */
export function schemaSql(world: WorldModel): string[] {
  return [...world.tables.flatMap((t) => [createTableSql(t), ...indexesSql(t)]), PROPOSALS_DDL];
}
