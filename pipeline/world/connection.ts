import Database from "better-sqlite3";
import { ChangeCapture, armedBuffer } from "./changes.js";
import type { StateTable } from "./schema-sql.js";
import { ProposalStore } from "./approvals.js";
import { queryConnection, type QueryConnection } from "./query-tool.js";

/**
 * One episode's database and the statements it prepares (each at most once, keyed by SQL text, and
 * only when first needed).
 *
 * Each writing call is one savepoint, released when the call succeeds and rolled back when it
 * fails. Two ways to isolate episodes from each other:
 *
 * - `copy` (default): the connection is a fresh copy of the state (its armed buffer, changes.ts)
 *   and is closed at the end. Nothing is shared.
 * - `reuse`: each episode runs inside an outer transaction; at the end that transaction is rolled
 *   back, which restores s0 exactly, and the connection goes back to a small pool for the next
 *   episode on the same state. Opening a copy is
 *   cheap, but SQLite parses the schema, the capture triggers and every statement anew on each new
 *   connection, and on a small machine that costs more than the ten calls of a typical trace; a
 *   reused connection keeps all three. A connection whose transaction did not survive
 *   to the end is closed, never pooled. Episodes that are open at the same time always have
 *   different connections.
 */
export type Isolation = "copy" | "reuse";

/** Idle connections per initial-state buffer; bounded so a burst of parallel episodes does not pin memory. */
const pool = new WeakMap<Buffer, EpisodeConnection[]>();
const MAX_IDLE = 4;

export class EpisodeConnection {
  readonly db: Database.Database;
  readonly #buffer: Buffer;
  readonly #isolation: Isolation;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #rawStatements = new Map<string, Database.Statement>();
  readonly changes: ChangeCapture;
  #proposals?: ProposalStore;
  #query?: QueryConnection;

  private constructor(buffer: Buffer, isolation: Isolation, tables: readonly StateTable[]) {
    this.db = new Database(armedBuffer(buffer, tables));
    this.#buffer = buffer;
    this.#isolation = isolation;
    this.changes = new ChangeCapture(this.db, tables);
  }

  /** A connection on `buffer` (whose state tables are `tables`) positioned at s0, inside its outer transaction. */
  static acquire(buffer: Buffer, tables: readonly StateTable[], isolation: Isolation = "copy"): EpisodeConnection {
    if (isolation === "copy") return new EpisodeConnection(buffer, isolation, tables);
    const conn = pool.get(buffer)?.pop() ?? new EpisodeConnection(buffer, isolation, tables);
    conn.statement("BEGIN").run();
    return conn;
  }

  /** The prepared statement of an SQL text. */
  statement(sql: string): Database.Statement {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  /** The prepared statement of an SQL text in raw mode (rows as arrays). */
  rawStatement(sql: string): Database.Statement {
    let s = this.#rawStatements.get(sql);
    if (!s) {
      s = this.db.prepare(sql).raw(true);
      this.#rawStatements.set(sql, s);
    }
    return s;
  }

  get proposals(): ProposalStore {
    return (this.#proposals ??= new ProposalStore(this.db));
  }

  get query(): QueryConnection {
    return (this.#query ??= queryConnection(this.db));
  }

  /** Run `fn(input)` as one savepoint: released if it returns, rolled back (and rethrown) if it throws. */
  write<A, T>(fn: (input: A) => T, input: A): T {
    this.statement("SAVEPOINT call").run();
    try {
      const out = fn(input);
      this.statement("RELEASE call").run();
      return out;
    } catch (e) {
      if (this.db.inTransaction) {
        this.statement("ROLLBACK TO call").run();
        this.statement("RELEASE call").run();
      }
      this.changes.discard();
      throw e;
    }
  }

  /** End the episode: close the copy, or roll back to s0 and return the connection to the pool. */
  close(): void {
    if (!this.db.open) return;
    if (this.#isolation === "reuse" && this.db.inTransaction) {
      this.statement("ROLLBACK").run();
      this.changes.discard();
      const idle = pool.get(this.#buffer) ?? [];
      if (!pool.has(this.#buffer)) pool.set(this.#buffer, idle);
      if (idle.length < MAX_IDLE && !idle.includes(this)) {
        idle.push(this);
        return;
      }
    }
    this.db.close();
  }
}
