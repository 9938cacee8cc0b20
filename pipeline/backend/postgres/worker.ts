import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { mkdirSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { FoundryConfig } from "../../core/config.js";
import { FoundryError } from "../../core/errors.js";
import { Database } from "./database.js";
import { ensureSchema, SCHEMA } from "./schema.js";
import { JobQueue, queueName, type ItemKind, type TakenItem } from "./queue.js";
import { PgResponseCache } from "./pg-response-cache.js";
import { getWork } from "./work-spec.js";
import { hasResult, writeResult } from "./results-store.js";
import { ITEM_HANDLERS } from "./item-handlers.js";
import { workerCode } from "./worker-code.js";
import type { WorkerContext } from "./item-handler.js";
import { activeItems } from "./item-states.js";

export interface WorkerOptions {
  config: FoundryConfig;
  /** Keep waiting for items when the queue is empty, until stopped (SIGINT/SIGTERM). */
  follow: boolean;
  /** Items run at once in this process. Default 1. */
  concurrency?: number;
  /** How often an idle worker looks for items. Default 500 ms. */
  pollMs?: number;
  /** One line per event (item taken, done, failed, idle). */
  log?: (line: string) => void;
  /** Stops taking items when aborted (items in hand are finished). */
  signal?: AbortSignal;
}

export interface WorkerOutcome {
  worker: string;
  done: number;
  failed: number;
  /** Items whose result another attempt had already written (this attempt's result was dropped). */
  duplicates: number;
}

/** Wait `ms`, or less when `signal` aborts (its listener removed either way, so idle polling never piles listeners up). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * `synth worker`: take items (evaluation episodes, build slots) of this code's queues until none is
 * waiting or leased anywhere (or, with `follow`, until stopped). Each item: its result is looked up
 * first (an item finished by someone else is only completed), run, written once under its
 * idempotency key, then completed; a failure is handed back to the queue, which retries it with
 * backoff while its retries last. A worker killed mid-item loses only that item's progress: its
 * lease expires and another worker takes it.
 */
export async function runWorker(opts: WorkerOptions): Promise<WorkerOutcome> {
  // One abort listener per LangGraph Send branch and model call: a wide fan-out is expected, not a leak.
  setMaxListeners(256);
  const log = opts.log ?? (() => undefined);
  const db = await Database.open(opts.config.database_url, "starting the worker");
  const id = `${hostname()}-${process.pid}-${randomBytes(2).toString("hex")}`;
  const code = workerCode();
  const kinds = (Object.keys(ITEM_HANDLERS) as ItemKind[]).filter((k) => ITEM_HANDLERS[k]);
  const queues = kinds.map((k) => queueName(k, code));
  let queue: JobQueue | null = null;
  const loaded = new Map<string, { close(): void; p: Promise<unknown> }>();
  const scratchDir = join(opts.config.cache_dir, "backend", `worker-${id}`);
  const outcome: WorkerOutcome = { worker: id, done: 0, failed: 0, duplicates: 0 };
  let beat: NodeJS.Timeout | undefined;
  try {
    await ensureSchema(db);
    queue = await JobQueue.open(db, { install: true, supervise: true });
    for (const q of queues) await queue.ensureQueue(q);
    await db.query(`INSERT INTO ${SCHEMA}.workers (id, host, pid, code) VALUES ($1, $2, $3, $4)`, [id, hostname(), process.pid, code], "registering the worker");
    beat = setInterval(() => void db.pool.query(`UPDATE ${SCHEMA}.workers SET last_seen = now() WHERE id = $1`, [id]).catch(() => undefined), 2000);
    mkdirSync(scratchDir, { recursive: true });
    const w: WorkerContext = { db, config: opts.config, responseCache: new PgResponseCache(db), cacheDir: join(opts.config.cache_dir, "backend"), scratchDir, workerId: id };
    log(`worker ${id} (code ${code.slice(0, 16)}) on ${db.shown}: taking items of ${queues.join(", ")}${opts.follow ? " until stopped" : " until the queue is empty"}`);

    const handle = async (q: JobQueue, item: TakenItem): Promise<void> => {
      const kind = kinds[queues.indexOf(item.queue)] as ItemKind;
      const handler = ITEM_HANDLERS[kind];
      const started = Date.now();
      // An attempt of this job still open is one whose worker died or overran its lease.
      await db.query(`UPDATE ${SCHEMA}.attempts SET ended_at = now(), outcome = 'lease_expired' WHERE job_id = $1 AND ended_at IS NULL`, [item.id], "recording an attempt");
      const [attempt] = await db.query<{ id: string }>(`INSERT INTO ${SCHEMA}.attempts (job_id, queue, item_key, worker) VALUES ($1, $2, $3, $4) RETURNING id`, [item.id, item.queue, item.data.key, id], "recording an attempt");
      const end = (outcome: string, message: string | null) => db.query(`UPDATE ${SCHEMA}.attempts SET ended_at = now(), outcome = $2, message = $3 WHERE id = $1`, [attempt?.id, outcome, message], "recording an attempt");
      try {
        if (!handler) throw new FoundryError("QUEUE_ITEM_INVALID", `no handler for items of kind ${kind}`);
        if (await hasResult(db, item.data.key)) {
          await q.complete(item);
          await end("done_before", null);
          return;
        }
        log(`took ${kind} ${item.data.item}${item.retryCount > 0 ? ` (retry ${item.retryCount})` : ""}`);
        if (!loaded.has(item.data.parent)) {
          const p = getWork(db, item.data.parent).then((work) => handler.load(work.spec, w, item.data.parent));
          p.catch(() => loaded.delete(item.data.parent));
          const entry = { p, close: () => void p.then((l) => handler.close(l)).catch(() => undefined) };
          loaded.set(item.data.parent, entry);
        }
        const l = await (loaded.get(item.data.parent) as { p: Promise<unknown> }).p;
        const r = await handler.run(l, item.data.item, w);
        const wrote = await writeResult(db, { key: item.data.key, parent: item.data.parent, item: item.data.item, value: r.value, attachment: r.attachment, worker: id });
        await q.complete(item);
        await end(wrote ? "done" : "duplicate", null);
        if (wrote) outcome.done++;
        else outcome.duplicates++;
        log(`done ${kind} ${item.data.item} in ${Date.now() - started} ms${wrote ? "" : " (already written by another attempt: this result dropped)"}`);
      } catch (e) {
        const message = FoundryError.is(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
        outcome.failed++;
        log(`failed ${kind} ${item.data.item}: ${message}`);
        if (FoundryError.is(e) && e.code === "DATABASE_LOST") throw e;
        await q.fail(item, message);
        await end("failed", message);
      }
    };

    const lane = async (q: JobQueue, lane: number): Promise<void> => {
      let turn = lane;
      while (!opts.signal?.aborted) {
        let item: TakenItem | null = null;
        for (let i = 0; i < queues.length && !item; i++) item = await q.take(queues[(turn + i) % queues.length] as string);
        turn++;
        if (item) {
          await handle(q, item);
          continue;
        }
        // pg-boss answers "nothing" also while the database is away: ask the database itself.
        if (!opts.follow && (await activeItems(db, queues)) === 0) return;
        await sleep(opts.pollMs ?? 500, opts.signal);
      }
    };
    const q = queue;
    await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 1) }, (_, i) => lane(q, i)));
    log(`worker ${id}: ${outcome.done} done, ${outcome.failed} failed${outcome.duplicates ? `, ${outcome.duplicates} duplicate(s) dropped` : ""}; ${opts.signal?.aborted ? "stopped" : "queue empty"}`);
    return outcome;
  } finally {
    clearInterval(beat);
    await db.query(`UPDATE ${SCHEMA}.workers SET stopped_at = now(), last_seen = now() WHERE id = $1`, [id]).catch(() => undefined);
    for (const [, entry] of loaded) entry.close();
    await queue?.close();
    await db.close();
    rmSync(scratchDir, { recursive: true, force: true });
  }
}
