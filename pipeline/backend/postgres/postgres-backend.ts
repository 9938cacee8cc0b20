import type { FoundryConfig } from "../../core/config.js";
import { Database } from "./database.js";
import { ensureSchema } from "./schema.js";
import { JobQueue, type ItemBounds } from "./queue.js";
import { PgResponseCache } from "./pg-response-cache.js";
import { workerCode } from "./worker-code.js";

/** The open connection of the postgres backend: database, job queue, and this code's fingerprint. */
export class PostgresBackend {
  readonly db: Database;
  readonly queue: JobQueue;
  readonly code: string;
  readonly bounds: ItemBounds;
  readonly responseCache: PgResponseCache;
  readonly log: (line: string) => void;

  private constructor(db: Database, queue: JobQueue, config: FoundryConfig, log: (line: string) => void) {
    this.db = db;
    this.queue = queue;
    this.code = workerCode();
    this.bounds = { leaseSeconds: config.lease_seconds, retries: config.item_retries };
    this.responseCache = new PgResponseCache(db);
    this.log = log;
  }

  /** Connect (reporting an unreachable database, a wrong password or a missing database before any work) and create the schemas when missing. */
  static async open(config: FoundryConfig, log: (line: string) => void): Promise<PostgresBackend> {
    const db = await Database.open(config.database_url, "connecting to the postgres backend");
    try {
      await ensureSchema(db);
      const queue = await JobQueue.open(db, { install: true, supervise: true });
      return new PostgresBackend(db, queue, config, log);
    } catch (e) {
      await db.close();
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.db.close();
  }
}
