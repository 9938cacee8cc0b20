import type Database from "better-sqlite3";
import type { CompiledWorld } from "./compile-world.js";
import { leadingKeyword, tokenizeSql } from "./sql-text.js";
import { ToolError } from "./tool-error.js";

/**
 * `query_database(sql)`: read-only SQL over the world's tables. Four layers, any of which refuses:
 *
 * 1. Text: one statement starting with SELECT, WITH or VALUES; no `RECURSIVE` (a running query
 *    cannot be interrupted); no parameters; no `random()` or wall clock (`'now'`, `current_…`),
 *    whose answers would differ when the trace is replayed; no identifier that names a built-in table (`_…`),
 *    SQLite's own schema (`sqlite_…`, `pragma_…`) or a hidden column. Hidden columns are refused
 *    by name wherever they appear (select list, WHERE, ORDER BY), so they cannot leak through a
 *    filter either; a visible column that shares a hidden column's name is refused too (rename
 *    one of them in the world model if that matters).
 * 2. SQLite: the statement must prepare as a single statement (`prepare` refuses several) and be
 *    a reader that is read-only (`stmt.reader && stmt.readonly`: refuses ATTACH, PRAGMA writes,
 *    `INSERT … RETURNING`, `WITH … INSERT`).
 * 3. Result columns: none may come from a built-in table or a hidden column (catches `SELECT *`).
 * 4. The connection runs it with `PRAGMA query_only = ON`, so even a missed write fails.
 *
 * At most QUERY_ROW_LIMIT rows come back; iteration stops there and `truncated` says so.
 */

export const QUERY_ROW_LIMIT = 50;
export const QUERY_MAX_LENGTH = 4000;

export interface QueryResult {
  columns: string[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
}

const NON_DETERMINISTIC = new Set(["random", "randomblob", "current_timestamp", "current_date", "current_time"]);

function refuse(message: string): never {
  throw new ToolError("query_refused", message, "sql");
}

function checkText(world: CompiledWorld, sql: string): void {
  const tokens = tokenizeSql(sql);
  const kw = leadingKeyword(tokens);
  if (kw !== "SELECT" && kw !== "WITH" && kw !== "VALUES") refuse(`only a single SELECT statement is allowed, got ${kw || "no statement"}`);
  for (const t of tokens) {
    if (t.kind === "param") refuse("parameters are not allowed; write the values into the query");
    if (t.kind === "string" && t.text.toLowerCase() === "now") refuse("the wall clock ('now') is not available; the business date and time are in the data");
    if (t.kind !== "word" && t.kind !== "quoted") continue;
    const name = t.text.toLowerCase();
    if (t.kind === "word" && name === "recursive") refuse("recursive queries are not allowed");
    if (t.kind === "word" && NON_DETERMINISTIC.has(name)) refuse(`${t.text} is not available: its answer would differ when the call is replayed`);
    if (name.startsWith("_") || name.startsWith("sqlite_") || name.startsWith("pragma_")) refuse(`"${t.text}" is not available to queries`);
    if (world.hiddenColumns.has(name)) refuse(`column "${t.text}" is not available to queries`);
  }
}

/** Statements the tool keeps per connection. */
export interface QueryConnection {
  db: Database.Database;
  queryOnlyOn: Database.Statement;
  queryOnlyOff: Database.Statement;
}

/** Prepare the pragma statements the query tool needs on a connection. */
export function queryConnection(db: Database.Database): QueryConnection {
  return { db, queryOnlyOn: db.prepare("PRAGMA query_only = ON"), queryOnlyOff: db.prepare("PRAGMA query_only = OFF") };
}

/** Run one read-only query; refusals and SQL errors are thrown as ToolErrors. */
export function queryDatabase(conn: QueryConnection, world: CompiledWorld, sql: string): QueryResult {
  checkText(world, sql);
  let stmt: Database.Statement;
  try {
    stmt = conn.db.prepare(sql);
  } catch (e) {
    throw new ToolError("invalid_sql", (e as Error).message, "sql");
  }
  if (!stmt.reader || !stmt.readonly) refuse("only a single read-only SELECT statement is allowed");
  const columns = stmt.columns();
  for (const c of columns) {
    if (c.table !== null && c.table.startsWith("_")) refuse(`"${c.table}" is not available to queries`);
    if (c.table !== null && c.column !== null && world.tables.get(c.table)?.columns.some((col) => col.name === c.column && col.hidden)) {
      refuse(`column "${c.column}" is not available to queries`);
    }
  }
  const rows: Record<string, unknown>[] = [];
  let truncated = false;
  conn.queryOnlyOn.run();
  try {
    for (const row of stmt.iterate() as Iterable<Record<string, unknown>>) {
      if (rows.length === QUERY_ROW_LIMIT) {
        truncated = true;
        break;
      }
      rows.push(row);
    }
  } catch (e) {
    throw new ToolError("invalid_sql", (e as Error).message, "sql");
  } finally {
    conn.queryOnlyOff.run();
  }
  return { columns: columns.map((c) => c.name), rows, row_count: rows.length, truncated };
}

/** The visible schema, for the query tool's description: tables and their non-hidden columns. */
export function visibleSchema(world: CompiledWorld): string {
  return world.world.tables
    .map((t) => `- ${t.name}(${t.columns.filter((c) => !c.hidden).map((c) => `${c.name} ${c.type}`).join(", ")}): ${t.description}`)
    .join("\n");
}
