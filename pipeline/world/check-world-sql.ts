import Database from "better-sqlite3";
import type { ScheduledEvent, WorldModel } from "../schemas/index.js";
import { ProblemList, type PathSegment } from "./world-problems.js";
import { schemaSql } from "./schema-sql.js";
import { foreignParams, leadingKeyword, namedParams, tokenizeSql, type SqlToken } from "./sql-text.js";
import { RESERVED_PARAMS } from "./tool-names.js";

/**
 * Prepares every SQL statement of a world model against an empty database with the world's schema,
 * so a missing table, a typo in a column or a statement of the wrong sort is reported at load time
 * rather than as an errored call in the middle of an episode.
 */

export type SqlRole = "precondition" | "effect" | "result";

/** Functions whose value differs between runs, or between a fresh and a pooled connection. */
const NONDETERMINISTIC_FUNCTIONS = new Set(["random", "randomblob", "changes", "total_changes", "last_insert_rowid"]);
/** Keywords that read the wall clock. */
const CLOCK_KEYWORDS = new Set(["current_timestamp", "current_date", "current_time"]);
/** Date and time functions, with the number of arguments they need before a time value is given. */
const DATE_FUNCTIONS = new Map<string, number>([["date", 1], ["time", 1], ["datetime", 1], ["julianday", 1], ["unixepoch", 1], ["strftime", 2], ["timediff", 2]]);
/** Time values and modifiers that read the wall clock or the machine's time zone. */
const CLOCK_STRINGS = new Set(["now", "localtime", "utc"]);

/** The arguments of the call whose `(` is at `open`, each as its tokens (no argument: an empty list). */
function callArguments(tokens: readonly SqlToken[], open: number): SqlToken[][] {
  const args: SqlToken[][] = [];
  let current: SqlToken[] = [];
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as SqlToken;
    if (t.kind === "punct" && t.text === "(") {
      depth++;
      if (depth === 1) continue;
    } else if (t.kind === "punct" && t.text === ")") {
      depth--;
      if (depth === 0) break;
    } else if (depth === 1 && t.kind === "punct" && t.text === ",") {
      args.push(current);
      current = [];
      continue;
    }
    current.push(t);
  }
  if (current.length > 0 || args.length > 0) args.push(current);
  return args;
}

/**
 * What in a statement makes its result differ between runs, or null: randomness, the wall clock
 * (`CURRENT_*`, `'now'`, a date function given no time value such as `julianday()` or
 * `strftime('%s')`, the `'localtime'` and `'utc'` modifiers) or connection counters (`changes()`).
 */
export function nondeterminism(tokens: readonly SqlToken[]): string | null {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as SqlToken;
    const w = t.text.toLowerCase();
    const next = tokens[i + 1];
    const isCall = (t.kind === "word" || t.kind === "quoted") && next?.kind === "punct" && next.text === "(";
    if (t.kind === "word" && CLOCK_KEYWORDS.has(w)) return w;
    if (t.kind === "string" && w.trim() === "now") return "'now'";
    if (isCall && NONDETERMINISTIC_FUNCTIONS.has(w)) return w;
    const needed = isCall ? DATE_FUNCTIONS.get(w) : undefined;
    if (needed === undefined) continue;
    const args = callArguments(tokens, i + 1);
    if (args.length < needed) return `${w}() without a time value (it then reads the clock)`;
    for (const a of args) {
      const only = a.length === 1 ? a[0] : undefined;
      if (only?.kind === "string" && CLOCK_STRINGS.has(only.text.trim().toLowerCase())) return `'${only.text.trim()}'`;
    }
  }
  return null;
}

/** Names of the common table expressions SQLite plans as recursive for a prepared statement. */
function recursiveCtes(db: Database.Database, sql: string, params: readonly string[]): string[] {
  let plan: Array<{ id: number; parent: number; detail: string }>;
  try {
    plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(Object.fromEntries(params.map((p) => [p, null]))) as typeof plan;
  } catch {
    // Unbindable parameters (`?`, `@x`) are reported on their own; the plan cannot be read then.
    return [];
  }
  // SQLite plans a CTE that reads itself as SETUP + RECURSIVE STEP under the CTE's co-routine, with
  // or without the RECURSIVE keyword: the structure, not the spelling.
  const byId = new Map(plan.map((r) => [r.id, r]));
  const names = new Set<string>();
  for (const r of plan) {
    if (r.detail !== "RECURSIVE STEP") continue;
    const owner = byId.get(r.parent);
    names.add(owner ? owner.detail.replace(/^(CO-ROUTINE|MATERIALIZE)\s+/, "") : "?");
  }
  return [...names];
}

/** An empty in-memory database with the world's tables; the caller closes it. */
export function openSchemaDatabase(world: WorldModel): Database.Database {
  const db = new Database(":memory:");
  for (const sql of schemaSql(world)) {
    try {
      db.exec(sql);
    } catch {
      // A table that cannot be created (e.g. a duplicate name) is reported by the structural checks.
    }
  }
  return db;
}

/** Check one statement: it prepares, is of the right sort, and names only allowed parameters. */
export function checkStatement(db: Database.Database, sql: string, role: SqlRole, allowed: ReadonlySet<string>, path: PathSegment[], out: ProblemList): void {
  const tokens = tokenizeSql(sql);
  const kw = leadingKeyword(tokens);
  // `_capture` feeds the change log (changes.ts): world SQL calling it could forge row changes.
  if (tokens.some((t) => (t.kind === "word" || t.kind === "quoted") && t.text.toLowerCase() === "_capture")) {
    out.add("WORLD_SQL_RESERVED", `${role} SQL calls the runtime's _capture function`, path, sql);
    return;
  }
  // Replays must give the same answer: no randomness, no wall clock (the logical minute is :now).
  const varies = nondeterminism(tokens);
  if (varies !== null) {
    out.add("WORLD_SQL_NONDETERMINISTIC", `${role} SQL uses ${varies}, which differs between runs; use :now (the logical minute) or a bound value`, path, sql);
    return;
  }
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    out.add("WORLD_SQL", `${role} SQL does not prepare: ${(e as Error).message}`, path, sql);
    return;
  }
  if (role === "effect") {
    if (!["INSERT", "UPDATE", "DELETE", "REPLACE"].includes(kw) || stmt.readonly) {
      out.add("WORLD_SQL_NOT_WRITE", `an effect must be one INSERT, UPDATE or DELETE statement`, path, sql);
    } else if (stmt.reader) {
      out.add("WORLD_SQL_NOT_WRITE", `an effect must not return rows (drop RETURNING; use the result view)`, path, sql);
    }
  } else if (!(kw === "SELECT" || kw === "WITH" || kw === "VALUES") || !stmt.reader || !stmt.readonly) {
    out.add("WORLD_SQL_NOT_SELECT", `a ${role} must be one SELECT statement`, path, sql);
  }
  // Termination of a recursive CTE cannot be shown at load time, and one that never ends stalls the build.
  for (const name of recursiveCtes(db, sql, namedParams(tokens))) {
    out.add("WORLD_SQL_RECURSIVE", `${role} SQL has a recursive common table expression "${name}" (it reads itself); world SQL must not recurse`, path, sql);
  }
  for (const t of tokens) {
    if (t.kind !== "string") continue;
    for (const m of t.text.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const name = m[1] as string;
      if (allowed.has(name)) {
        out.add("WORLD_SQL_PARAM_IN_STRING", `${role} SQL writes :${name} inside the string literal '${t.text}', where it is text and never bound; concatenate instead ('…' || :${name})`, path, t.text);
      }
    }
  }
  for (const p of foreignParams(tokens)) {
    out.add("WORLD_SQL_PARAM", `parameter "${p}" must be written :name`, path, p);
  }
  for (const p of namedParams(tokens)) {
    if (!allowed.has(p)) out.add("WORLD_SQL_UNKNOWN_PARAM", `${role} SQL uses :${p}, which is neither a parameter nor one of :now, :actor, :call`, path, p);
  }
}

/** Check the effects of scheduled events (only :now, :actor and :call are bound for them). */
export function checkEventSql(db: Database.Database, events: readonly ScheduledEvent[], base: PathSegment[], out: ProblemList): void {
  const allowed = new Set<string>(RESERVED_PARAMS);
  events.forEach((e, i) => e.effects.forEach((eff, k) => checkStatement(db, eff.sql, "effect", allowed, [...base, i, "effects", k, "sql"], out)));
}

/** Prepare every precondition, effect and result of every operation and event. */
export function checkWorldSql(world: WorldModel, out: ProblemList): void {
  const db = openSchemaDatabase(world);
  try {
    world.operations.forEach((op, i) => {
      const allowed = new Set<string>([...Object.keys(op.params), ...RESERVED_PARAMS]);
      const base: PathSegment[] = ["operations", i];
      op.preconditions.forEach((pc, k) => checkStatement(db, pc.sql, "precondition", allowed, [...base, "preconditions", k, "sql"], out));
      op.effects.forEach((eff, k) => checkStatement(db, eff.sql, "effect", allowed, [...base, "effects", k, "sql"], out));
      if (op.result) checkStatement(db, op.result.sql, "result", allowed, [...base, "result", "sql"], out);
    });
    checkEventSql(db, world.events, ["events"], out);
  } finally {
    db.close();
  }
}
