import { existsSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { FoundryError } from "../core/errors.js";
import { resolveConfig } from "../core/config.js";
import { REPO_ROOT } from "../core/repo-root.js";

/**
 * The engine-side bounds of every connection the world runtime opens (world state, episodes, agent
 * views): the sql-guard SQLite extension (native/sql-guard.c, built into build/native/ by
 * bin/build-native.mjs) gives each one a time bound per statement (a watchdog interrupts it), a
 * size bound on strings, blobs and rows, and refuses the wall clock and connection-dependent
 * functions (random(), changes(), 'now', 'localtime', …) whatever the SQL text looks like.
 */

export interface SqlLimits {
  /** Longest a single statement may run, in milliseconds (config `sql_time_limit_ms`). */
  timeLimitMs: number;
  /** Largest string, blob or row a statement may produce, in bytes (config `sql_max_length`). */
  maxLength: number;
}

export const DEFAULT_SQL_LIMITS: Readonly<SqlLimits> = Object.freeze({ timeLimitMs: 1000, maxLength: 1_000_000 });

const EXTENSION = join(REPO_ROOT, "build", "native", "sql-guard.so");

let resolved: SqlLimits | undefined;

/**
 * The limits a connection gets when its opener names none: the configuration's `sql_time_limit_ms`
 * and `sql_max_length` (environment, config file, defaults), read once per process.
 */
export function configuredSqlLimits(): SqlLimits {
  if (!resolved) {
    const c = resolveConfig({});
    resolved = { timeLimitMs: c.sql_time_limit_ms, maxLength: c.sql_max_length };
  }
  return resolved;
}

/** Load the sql-guard extension on `db` and set its limits (once: the extension refuses a second setting). */
export function guardConnection(db: Database.Database, limits: SqlLimits = configuredSqlLimits()): void {
  try {
    // The entry point named: SQLite otherwise looks up `sqlite3_extension_init` first, a failed dlsym per connection.
    // (better-sqlite3 takes the entry point as a second argument; its type declarations omit it.)
    (db.loadExtension as (path: string, entryPoint: string) => Database.Database)(EXTENSION, "sqlite3_sqlguard_init");
  } catch (e) {
    const built = existsSync(EXTENSION);
    throw new FoundryError(
      "SQL_GUARD_MISSING",
      built
        ? `cannot load the sql-guard SQLite extension: ${(e as Error).message}; rebuild it with \`node bin/build-native.mjs --force\``
        : "the sql-guard SQLite extension is not built; run `node bin/build-native.mjs` (npm ci runs it through the prepare script; it needs a C compiler)",
      { file: EXTENSION },
    );
  }
  db.prepare("SELECT sql_guard_config(?, ?)").get(BigInt(limits.timeLimitMs), BigInt(limits.maxLength));
}

/** Which bound an SQLite error comes from: the time limit, the size limit, a refused function, or none. */
export type GuardFailure = "time" | "size" | "refused";

/** Classify an error thrown by better-sqlite3 on a guarded connection. */
export function guardFailure(e: unknown): GuardFailure | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === "SQLITE_INTERRUPT") return "time";
  if (code === "SQLITE_TOOBIG") return "size";
  const message = (e as { message?: unknown } | null)?.message;
  if (typeof message === "string" && message.startsWith("sql_guard: ")) return "refused";
  return undefined;
}

/** The guard's message without its `sql_guard: ` prefix. */
export function guardMessage(e: unknown): string {
  return String((e as Error).message).replace(/^sql_guard: /, "");
}

/** A key for pooling connections by the limits they were guarded with. */
export function limitsKey(limits: SqlLimits): string {
  return `${limits.timeLimitMs}:${limits.maxLength}`;
}
