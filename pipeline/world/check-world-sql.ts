import Database from "better-sqlite3";
import type { ScheduledEvent, WorldModel } from "../schemas/index.js";
import { ProblemList, type PathSegment } from "./world-problems.js";
import { schemaSql } from "./schema-sql.js";
import { foreignParams, leadingKeyword, namedParams, tokenizeSql } from "./sql-text.js";
import { RESERVED_PARAMS } from "./tool-names.js";

/**
 * Prepares every SQL statement of a world model against an empty database with the world's schema,
 * so a missing table, a typo in a column or a statement of the wrong sort is reported at load time
 * rather than as an errored call in the middle of an episode.
 */

export type SqlRole = "precondition" | "effect" | "result";

const NON_DETERMINISTIC = new Set(["random", "randomblob", "current_timestamp", "current_date", "current_time"]);

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
  for (const t of tokens) {
    const w = t.text.toLowerCase();
    if ((t.kind === "word" && NON_DETERMINISTIC.has(w)) || (t.kind === "string" && w === "now")) {
      out.add("WORLD_SQL_NONDETERMINISTIC", `${role} SQL uses ${t.kind === "string" ? "'now'" : w}, which differs between runs; use :now (the logical minute) or a bound value`, path, sql);
      return;
    }
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
