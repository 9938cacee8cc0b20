import { Database } from "./database.js";
import { requireSchema, SCHEMA } from "./schema.js";
import { parseQueueName, QUEUE_SCHEMA, JobQueue, type ItemKind } from "./queue.js";
import { workerCode } from "./worker-code.js";

/** One queue: items by state. */
export interface QueueCounts {
  queue: string;
  kind: ItemKind;
  /** Code fingerprint prefix its workers must have. */
  code: string;
  /** Whether this synth's code serves it. */
  this_code: boolean;
  waiting: number;
  leased: number;
  done: number;
  failed: number;
}

/** One worker that ever registered: where, whether it is alive, and its items. */
export interface WorkerCounts {
  worker: string;
  host: string;
  pid: number;
  code: string;
  /** live (seen in the last 10 s), stopped (exited), or gone (not seen since: killed or cut off). */
  state: "live" | "stopped" | "gone";
  last_seen_s: number;
  leased: number;
  done: number;
  failed: number;
  /** Items it held when its lease expired (it died or overran). */
  lost: number;
}

export interface QueueStatus {
  database: string;
  queues: QueueCounts[];
  workers: WorkerCounts[];
}

/** `synth queue status`: items waiting, leased, done and failed per queue, and per worker. */
export async function queueStatus(url: string | null): Promise<QueueStatus> {
  const db = await Database.open(url, "reading the queue status");
  try {
    await requireSchema(db);
    const code = workerCode().slice(0, 16);
    const jobs = await db.query<{ name: string; state: string; n: string }>(`SELECT name, state::text AS state, count(*) AS n FROM ${QUEUE_SCHEMA}.job WHERE name LIKE 'foundry\\_%' GROUP BY 1, 2`);
    const archived = await db.query<{ name: string; n: string }>(`SELECT name, count(*) AS n FROM ${QUEUE_SCHEMA}.archive WHERE name LIKE 'foundry\\_%' AND state = 'completed' GROUP BY 1`).catch(() => []);
    const byQueue = new Map<string, QueueCounts>();
    const get = (name: string) => {
      const q = parseQueueName(name);
      if (!q) return null;
      if (!byQueue.has(name)) byQueue.set(name, { queue: name, kind: q.kind, code: q.code, this_code: q.code === code, waiting: 0, leased: 0, done: 0, failed: 0 });
      return byQueue.get(name) as QueueCounts;
    };
    for (const r of jobs) {
      const q = get(r.name);
      if (!q) continue;
      const n = Number(r.n);
      if (r.state === "created" || r.state === "retry") q.waiting += n;
      else if (r.state === "active") q.leased += n;
      else if (r.state === "completed") q.done += n;
      else if (r.state === "failed") q.failed += n;
    }
    for (const r of archived) {
      const q = get(r.name);
      if (q) q.done += Number(r.n);
    }
    const workers = await db.query<{ id: string; host: string; pid: number; code: string; stopped: boolean; age: number; leased: string; done: string; failed: string; lost: string }>(
      `SELECT w.id, w.host, w.pid, w.code, w.stopped_at IS NOT NULL AS stopped, extract(epoch FROM now() - w.last_seen)::float AS age,
              count(*) FILTER (WHERE a.ended_at IS NULL AND j.state = 'active') AS leased,
              count(*) FILTER (WHERE a.outcome IN ('done', 'duplicate')) AS done,
              count(*) FILTER (WHERE a.outcome = 'failed') AS failed,
              count(*) FILTER (WHERE a.outcome = 'lease_expired') AS lost
         FROM ${SCHEMA}.workers w
         LEFT JOIN ${SCHEMA}.attempts a ON a.worker = w.id
         LEFT JOIN ${QUEUE_SCHEMA}.job j ON j.id = a.job_id AND j.name = a.queue
        GROUP BY w.id ORDER BY w.started_at, w.id`,
    );
    return {
      database: db.shown,
      queues: [...byQueue.values()].sort((a, b) => (a.queue < b.queue ? -1 : 1)),
      workers: workers.map((w) => ({
        worker: w.id,
        host: w.host,
        pid: w.pid,
        code: w.code.slice(0, 16),
        state: w.stopped ? "stopped" : w.age <= 10 ? "live" : "gone",
        last_seen_s: Math.round(w.age),
        leased: Number(w.leased),
        done: Number(w.done),
        failed: Number(w.failed),
        lost: Number(w.lost),
      })),
    };
  } finally {
    await db.close();
  }
}

/** `synth queue retry-failed`: every failed foundry item back in its queue, one more attempt each. Returns how many per queue. */
export async function retryFailed(url: string | null): Promise<Record<string, number>> {
  const db = await Database.open(url, "retrying failed items");
  try {
    await requireSchema(db);
    const rows = await db.query<{ name: string; id: string }>(`SELECT name, id FROM ${QUEUE_SCHEMA}.job WHERE name LIKE 'foundry\\_%' AND state = 'failed'`);
    const byQueue = new Map<string, string[]>();
    for (const r of rows) byQueue.set(r.name, [...(byQueue.get(r.name) ?? []), r.id]);
    const queue = await JobQueue.open(db, { install: false, supervise: false });
    try {
      for (const [name, ids] of byQueue) await queue.retry(name, ids);
    } finally {
      await queue.close();
    }
    return Object.fromEntries([...byQueue].map(([k, v]) => [k, v.length]));
  } finally {
    await db.close();
  }
}
