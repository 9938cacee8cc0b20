import Database from "better-sqlite3";
import { ChangeCapture, armedBuffer } from "./changes.js";
import type { StateTable } from "./schema-sql.js";
import { ProposalStore } from "./approvals.js";
import type { QueryConnection } from "./query-tool.js";
import type { RowChange } from "../schemas/index.js";
import type { CompiledWorld } from "./compile-world.js";
import { AgentView } from "./agent-view.js";
import { guardConnection, limitsKey, type SqlLimits } from "./sql-guard.js";
import { ident } from "./schema-sql.js";

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
 *
 * Every connection is guarded (sql-guard.ts: time and size bounds, no wall clock) with the limits
 * it was opened with; pooled connections are kept per limits. Agent queries never run here: they
 * run on the episode's agent view (agent-view.ts), opened on the first query and kept in step with
 * the changes this connection commits (`log`).
 */
export type Isolation = "copy" | "reuse";

/** Idle connections per initial-state buffer and limits; bounded so a burst of parallel episodes does not pin memory. */
const pool = new WeakMap<Buffer, Map<string, EpisodeConnection[]>>();
const MAX_IDLE = 4;

export class EpisodeConnection {
  readonly db: Database.Database;
  readonly limits: SqlLimits;
  readonly #buffer: Buffer;
  readonly #isolation: Isolation;
  readonly #world: CompiledWorld;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #rawStatements = new Map<string, Database.Statement>();
  readonly changes: ChangeCapture;
  /** Every row change committed since s0, in order (what the agent view replays). */
  readonly #log: RowChange[] = [];
  #proposals?: ProposalStore;
  #view?: AgentView;
  #query?: QueryConnection;

  private constructor(buffer: Buffer, isolation: Isolation, world: CompiledWorld, limits: SqlLimits) {
    this.db = new Database(armedBuffer(buffer, world.stateTables));
    try {
      guardConnection(this.db, limits);
    } catch (e) {
      this.db.close();
      throw e;
    }
    this.limits = limits;
    this.#buffer = buffer;
    this.#isolation = isolation;
    this.#world = world;
    this.changes = new ChangeCapture(this.db, world.stateTables);
  }

  /** A connection on `buffer` (a state of `world`) positioned at s0, inside its outer transaction. */
  static acquire(buffer: Buffer, world: CompiledWorld, isolation: Isolation, limits: SqlLimits): EpisodeConnection {
    if (isolation === "copy") return new EpisodeConnection(buffer, isolation, world, limits);
    const conn = pool.get(buffer)?.get(limitsKey(limits))?.pop() ?? new EpisodeConnection(buffer, isolation, world, limits);
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

  /** The agent's query target: the agent view, opened on first use and synced before each query. */
  get query(): QueryConnection {
    return (this.#query ??= {
      limits: this.limits,
      view: () => {
        const view = (this.#view ??= new AgentView(this.#buffer, this.#world, this.limits));
        view.sync(this.#log, (table, columns) => this.rawStatement(`SELECT ${columns.map(ident).join(", ")} FROM ${ident(table)} ORDER BY rowid`).all() as unknown[][]);
        return view;
      },
    });
  }

  /** Run `fn(input)` as one savepoint: released if it returns, rolled back (and rethrown) if it throws. */
  write<A, T>(fn: (input: A) => T, input: A): T {
    const mark = this.#log.length;
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
      this.#log.length = mark;
      throw e;
    }
  }

  /** Record what a call took from the capture (inside `write`): it is committed unless the savepoint rolls back. */
  takeChanges(): RowChange[] {
    const changes = this.changes.take();
    for (const c of changes) this.#log.push(c);
    return changes;
  }

  /**
   * Close the idle pooled connections on a state. The pool forgets a state once its buffer is
   * collected, but each connection holds a deserialized copy of the database in native memory the
   * garbage collector does not see, so a caller that goes through thousands of states (the audit,
   * one per task) closes them when it is done with a state instead of leaving them to finalization.
   */
  static drain(buffer: Buffer): void {
    const byLimits = pool.get(buffer);
    if (!byLimits) return;
    pool.delete(buffer);
    for (const idle of byLimits.values()) {
      for (const conn of idle) {
        conn.#view?.close();
        conn.db.close();
      }
    }
  }

  /** End the episode: close the copy, or roll back to s0 and return the connection to the pool. */
  close(): void {
    if (!this.db.open) return;
    if (this.#isolation === "reuse" && this.db.inTransaction) {
      this.statement("ROLLBACK").run();
      this.changes.discard();
      this.#log.length = 0;
      this.#view?.reset();
      let byLimits = pool.get(this.#buffer);
      if (!byLimits) pool.set(this.#buffer, (byLimits = new Map()));
      const key = limitsKey(this.limits);
      const idle = byLimits.get(key) ?? [];
      if (!byLimits.has(key)) byLimits.set(key, idle);
      if (idle.length < MAX_IDLE && !idle.includes(this)) {
        idle.push(this);
        return;
      }
    }
    this.#view?.close();
    this.db.close();
  }
}
