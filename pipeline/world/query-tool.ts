import type Database from "better-sqlite3";
import type { CompiledWorld } from "./compile-world.js";
import { leadingKeyword, tokenizeSql } from "./sql-text.js";
import { ToolError } from "./tool-error.js";
import type { AgentView } from "./agent-view.js";
import { guardFailure, guardMessage, type SqlLimits } from "./sql-guard.js";

/**
 * `query_database(sql)`: read-only SQL over the world's tables. What guarantees that an agent reads
 * only what it may is the database it runs on: the episode's agent view (agent-view.ts), whose
 * schema has only the visible columns of the world tables — no hidden column, no `_` table, no
 * trigger. Every statement there runs under the sql-guard bounds (sql-guard.ts): past the time
 * limit it is interrupted (`sql_time_limit`), a value over the size limit fails (`sql_size_limit`),
 * and random(), changes(), 'now', 'localtime' and the like are refused by the engine
 * (`query_refused`). The layers in front only give friendlier answers:
 *
 * 1. Text: one statement starting with SELECT, WITH or VALUES; no `RECURSIVE`; no parameters; no
 *    `random()` or wall clock (`'now'`, and the keywords `current_date`, `current_time`,
 *    `current_timestamp`, which SQLite turns into function calls the engine refuses as well); no
 *    identifier that names a built-in table (`_…`), SQLite's own schema (`sqlite_…`, `pragma_…`) or
 *    a hidden column (a visible column that shares a hidden column's name is refused too).
 * 2. SQLite: the statement must prepare as a single statement (`prepare` refuses several) and be
 *    a reader that is read-only (`stmt.reader && stmt.readonly`: refuses ATTACH, PRAGMA writes,
 *    `INSERT … RETURNING`, `WITH … INSERT`).
 * 3. The view runs it with `PRAGMA query_only = ON`, so even a missed write fails.
 *
 * At most QUERY_ROW_LIMIT rows and QUERY_RESULT_BYTES of row JSON come back; iteration stops there
 * and `truncated` says so.
 */

export const QUERY_ROW_LIMIT = 50;
export const QUERY_MAX_LENGTH = 4000;
/** Bound of the rows' JSON in one answer (64 KiB). */
export const QUERY_RESULT_BYTES = 64 * 1024;

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

/** Where the tool runs: the episode's agent view, brought up to date by `view()`, and its limits. */
export interface QueryConnection {
  limits: SqlLimits;
  view(): AgentView;
}

/** A failure of SQLite (or of the sql-guard bounds) as the ToolError the agent sees. */
function sqlError(e: unknown, limits: SqlLimits): ToolError {
  switch (guardFailure(e)) {
    case "time":
      return new ToolError("sql_time_limit", `the query ran longer than ${limits.timeLimitMs} ms and was stopped; narrow it down`, "sql");
    case "size":
      return new ToolError("sql_size_limit", `the query produced a value larger than ${limits.maxLength} bytes`, "sql");
    case "refused":
      return new ToolError("query_refused", guardMessage(e), "sql");
    default:
      return new ToolError("invalid_sql", (e as Error).message, "sql");
  }
}

/** Run one read-only query on the agent view; refusals and SQL errors are thrown as ToolErrors. */
export function queryDatabase(conn: QueryConnection, world: CompiledWorld, sql: string): QueryResult {
  checkText(world, sql);
  const view = conn.view();
  let stmt: Database.Statement;
  try {
    stmt = view.db.prepare(sql);
  } catch (e) {
    throw sqlError(e, conn.limits);
  }
  if (!stmt.reader || !stmt.readonly) refuse("only a single read-only SELECT statement is allowed");
  const columns = stmt.columns();
  const rows: Record<string, unknown>[] = [];
  let truncated = false;
  let bytes = 2;
  view.queryOnly(true);
  try {
    for (const row of stmt.iterate() as Iterable<Record<string, unknown>>) {
      if (rows.length === QUERY_ROW_LIMIT) {
        truncated = true;
        break;
      }
      bytes += JSON.stringify(row).length + 1;
      if (bytes > QUERY_RESULT_BYTES) {
        truncated = true;
        break;
      }
      rows.push(row);
    }
  } catch (e) {
    throw sqlError(e, conn.limits);
  } finally {
    view.queryOnly(false);
  }
  return { columns: columns.map((c) => c.name), rows, row_count: rows.length, truncated };
}

/** The visible schema, for the query tool's description: tables and their non-hidden columns. */
export function visibleSchema(world: CompiledWorld): string {
  return world.world.tables
    .map((t) => `- ${t.name}(${t.columns.filter((c) => !c.hidden).map((c) => `${c.name} ${c.type}`).join(", ")}): ${t.description}`)
    .join("\n");
}
