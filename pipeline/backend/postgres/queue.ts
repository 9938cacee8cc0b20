import PgBoss from "pg-boss";
import type { Database } from "./database.js";
import { databaseError } from "./connect-error.js";

/** The two kinds of work item: one evaluation episode, or the per-slot build work of one task slot. */
export type ItemKind = "episode" | "slot";

/** pg-boss keeps its tables in this schema. */
export const QUEUE_SCHEMA = "pgboss";

/** How often some process checks for expired leases (pg-boss maintenance; one process runs it per interval). */
export const MAINTENANCE_SECONDS = 2;

/**
 * The queue of items of one kind for one version of the code: a worker takes only items whose
 * results its own code would produce, so workers of another revision never mix their bytes in.
 */
export function queueName(kind: ItemKind, code: string): string {
  return `foundry_${kind}_${code.slice(0, 16)}`;
}

/** The kind and code prefix of a queue name, or null for a queue that is not the foundry's. */
export function parseQueueName(name: string): { kind: ItemKind; code: string } | null {
  const m = /^foundry_(episode|slot)_([0-9a-f]{16})$/.exec(name);
  return m ? { kind: m[1] as ItemKind, code: m[2] as string } : null;
}

/** The job id of an idempotency key: the same key always names the same job, so enqueueing twice inserts once. */
export function jobId(key: string): string {
  return `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20, 32)}`;
}

/** What an item carries: its idempotency key, the evaluation or build it belongs to, and its name there. */
export interface ItemData {
  key: string;
  parent: string;
  item: string;
}

/** One item a worker took: the job and its data. */
export interface TakenItem {
  queue: string;
  id: string;
  data: ItemData;
  retryCount: number;
}

/** Lease and retry bounds of enqueued items. */
export interface ItemBounds {
  leaseSeconds: number;
  retries: number;
}

/**
 * The job queue (pg-boss): items with an idempotency key (the job id), a lease (pg-boss's
 * expiration: an active job past it goes back to the queue, or fails when its retries are spent)
 * and bounded retries with exponential backoff.
 */
export class JobQueue {
  readonly #boss: PgBoss;
  readonly #db: Database;
  readonly #known = new Set<string>();

  private constructor(boss: PgBoss, db: Database) {
    this.#boss = boss;
    this.#db = db;
  }

  /** Start pg-boss (creating its schema when `install`), with lease checks every MAINTENANCE_SECONDS when `supervise`. */
  static async open(db: Database, opts: { install: boolean; supervise: boolean }): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString: db.url,
      schema: QUEUE_SCHEMA,
      max: 2,
      application_name: "synth-queue",
      migrate: opts.install,
      supervise: opts.supervise,
      schedule: false,
      maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
      monitorStateIntervalSeconds: 3600,
    });
    // pg-boss reports its own connection trouble (a restarting server) here; its loops carry on.
    boss.on("error", () => undefined);
    try {
      await db.retrying("starting the job queue", () => boss.start());
    } catch (e) {
      await boss.stop({ graceful: false, wait: false }).catch(() => undefined);
      throw databaseError(e, db.url, "starting the job queue");
    }
    return new JobQueue(boss, db);
  }

  /**
   * Create a queue when missing. Processes that start together (workers, a coordinator) create the
   * same queues at once, and pg-boss's queue creation deadlocks against itself: an advisory lock held
   * on one of our connections lets one process at a time look and create.
   */
  async ensureQueue(name: string): Promise<void> {
    if (this.#known.has(name)) return;
    await this.#db.transaction("creating a queue", async (c) => {
      await c.query("SELECT pg_advisory_xact_lock(hashtext('foundry-queue-create'))");
      if (!(await this.#boss.getQueue(name))) await this.#boss.createQueue(name, { name, policy: "standard" });
    });
    this.#known.add(name);
  }

  /** Enqueue items (an item whose job exists already is left as it is). */
  async enqueue(name: string, items: readonly ItemData[], bounds: ItemBounds): Promise<void> {
    await this.ensureQueue(name);
    for (let i = 0; i < items.length; i += 500) {
      const jobs = items.slice(i, i + 500).map((d) => ({ id: jobId(d.key), name, data: d, expireInSeconds: bounds.leaseSeconds, retryLimit: bounds.retries, retryDelay: 1, retryBackoff: true }));
      await this.#db.retrying("enqueueing items", () => this.#boss.insert(jobs));
    }
  }

  /** Take the next waiting item of a queue, or null (pg-boss also answers null while the database is away). */
  async take(name: string): Promise<TakenItem | null> {
    const [job] = await this.#boss.fetch<ItemData>(name, { includeMetadata: true, batchSize: 1 });
    return job ? { queue: name, id: job.id, data: job.data, retryCount: job.retryCount } : null;
  }

  async complete(item: TakenItem): Promise<void> {
    await this.#db.retrying("completing an item", () => this.#boss.complete(item.queue, item.id, {}));
  }

  /** Fail one attempt: retried with backoff while retries remain, else failed. */
  async fail(item: TakenItem, message: string): Promise<void> {
    await this.#db.retrying("failing an item", () => this.#boss.fail(item.queue, item.id, { message }));
  }

  /** Put failed jobs back in the queue (one more attempt each). */
  async retry(name: string, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.#db.retrying("retrying failed items", () => this.#boss.retry(name, [...ids]));
  }

  /** Check leases now (what the maintenance loop does every MAINTENANCE_SECONDS). */
  async expireLeases(): Promise<void> {
    await this.#db.retrying("checking leases", () => this.#boss.expire());
  }

  async close(): Promise<void> {
    await this.#boss.stop({ graceful: false, wait: true, timeout: 2000 }).catch(() => undefined);
  }
}
