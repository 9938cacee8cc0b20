import { FoundryError } from "../core/errors.js";
import { guardFailure, guardMessage, type SqlLimits } from "./sql-guard.js";

/**
 * A world statement (precondition, effect, result view, scheduled event) that the sql-guard
 * extension stopped is a defect of the world, not of the caller: it becomes a named problem that
 * propagates out of the episode (the build drops the item with this message instead of stalling),
 * naming the statement by its path in the world model and quoting its SQL.
 */

/** What a world statement is: `operation "x" precondition "p"`, and its field path. */
export interface WorldStatement {
  what: string;
  path: string;
}

const CODES = { time: "WORLD_SQL_TIME_LIMIT", size: "WORLD_SQL_SIZE_LIMIT", refused: "WORLD_SQL_NONDETERMINISTIC" } as const;

/** The named problem for a guard failure of a world statement, or undefined for any other error. */
export function worldSqlProblem(e: unknown, at: WorldStatement, sql: string, limits: SqlLimits): FoundryError | undefined {
  if (FoundryError.is(e)) return e;
  const kind = guardFailure(e);
  if (kind === undefined) return undefined;
  const message =
    kind === "time"
      ? `${at.what} ran longer than the SQL time limit of ${limits.timeLimitMs} ms (sql_time_limit_ms) and was stopped`
      : kind === "size"
        ? `${at.what} produced a value larger than the SQL size limit of ${limits.maxLength} bytes (sql_max_length)`
        : `${at.what} was refused at run time: ${guardMessage(e)}`;
  return new FoundryError(CODES[kind], message, { file: "world.yaml", path: at.path }, sql);
}

/** Run one world statement; a guard failure is rethrown as its named problem. */
export function runWorldStatement<T>(fn: () => T, at: () => WorldStatement, sql: string, limits: SqlLimits): T {
  try {
    return fn();
  } catch (e) {
    throw worldSqlProblem(e, at(), sql, limits) ?? e;
  }
}
