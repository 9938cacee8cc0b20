import pg from "pg";
import { FoundryError } from "../../core/errors.js";
import { checkDatabaseUrl, redactUrl } from "./database-url.js";
import { databaseError, isConnectionError } from "./connect-error.js";

/** How long a lost connection is retried before the command stops with DATABASE_LOST (a rerun resumes). Default 60 s. */
export const RECONNECT_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One connection pool to the backend's database. `open` connects before any work, so an unreachable
 * server, a wrong password or a missing database is reported first, with the URL without its
 * password. Every query is retried while the connection is lost (a server restart), with backoff, for
 * `reconnectMs`; past that the command stops with DATABASE_LOST, and rerunning it continues.
 */
export class Database {
  readonly url: string;
  readonly shown: string;
  readonly pool: pg.Pool;
  readonly reconnectMs: number;
  #closed = false;

  private constructor(url: string, reconnectMs: number) {
    this.url = url;
    this.shown = redactUrl(url);
    this.reconnectMs = reconnectMs;
    this.pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 10_000, application_name: "synth" });
    // An idle client losing its server (a restart) must not crash the process; the next query reconnects.
    this.pool.on("error", () => undefined);
  }

  /** Connect and check the server answers; errors name what went wrong, never the password. */
  static async open(url: string | null | undefined, doing: string, reconnectMs = RECONNECT_MS): Promise<Database> {
    const db = new Database(checkDatabaseUrl(url), reconnectMs);
    try {
      await db.pool.query("SELECT 1");
    } catch (e) {
      await db.close();
      throw databaseError(e, db.url, doing);
    }
    return db;
  }

  /** Run `work`, retrying it while the database is unreachable (up to reconnectMs). */
  async retrying<T>(what: string, work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    let wait = 250;
    for (;;) {
      try {
        return await work();
      } catch (e) {
        if (this.#closed || !isConnectionError(e)) throw FoundryError.is(e) ? e : databaseError(e, this.url, what);
        if (Date.now() - started > this.reconnectMs) {
          throw new FoundryError("DATABASE_LOST", `${what}: lost the database at ${this.shown} for ${Math.round((Date.now() - started) / 1000)} s (${(e as Error).message}); nothing finished is lost: rerun the same command to continue`, { path: "--database-url" }, this.shown);
        }
        await sleep(wait);
        wait = Math.min(wait * 2, 5_000);
      }
    }
  }

  /** Rows of one statement (retried while the connection is lost). */
  async query<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = [], what = "database query"): Promise<R[]> {
    return this.retrying(what, async () => (await this.pool.query<R>(sql, params)).rows);
  }

  /** `work` in one transaction on one client (retried as a whole while the connection is lost). */
  async transaction<T>(what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.retrying(what, async () => {
      const client = await this.pool.connect();
      try {
        await client.query("BEGIN");
        const out = await work(client);
        await client.query("COMMIT");
        return out;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pool.end().catch(() => undefined);
  }
}
