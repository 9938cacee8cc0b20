import { QUEUE_SCHEMA } from "./queue.js";
import { SCHEMA } from "./schema.js";
import type { Database } from "./database.js";

/** Items of these queues waiting (created, retry) or leased (active) anywhere. */
export async function activeItems(db: Database, queues: readonly string[]): Promise<number> {
  const rows = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${QUEUE_SCHEMA}.job WHERE name = ANY($1) AND state IN ('created', 'retry', 'active')`, [queues], "reading the queue");
  return Number(rows[0]?.n ?? 0);
}

/** Where the items of one evaluation or build stand, across every worker. */
export interface ItemProgress {
  waiting: number;
  /** Leased items per worker id. */
  leased: Record<string, number>;
  /** Items failed for good (retries spent), with the last error. */
  failed: Array<{ key: string; item: string; message: string }>;
}

/** The queue state of the items with these job ids (and idempotency keys). */
export async function itemProgress(db: Database, queue: string, jobIds: readonly string[]): Promise<ItemProgress> {
  const rows = await db.query<{ id: string; state: string; key: string; item: string; message: string | null; worker: string | null }>(
    `SELECT j.id, j.state, j.data->>'key' AS key, j.data->>'item' AS item,
            coalesce(j.output->>'message', j.output->'value'->>'message') AS message,
            (SELECT a.worker FROM ${SCHEMA}.attempts a WHERE a.job_id = j.id ORDER BY a.started_at DESC, a.id DESC LIMIT 1) AS worker
       FROM ${QUEUE_SCHEMA}.job j WHERE j.name = $1 AND j.id = ANY($2::uuid[])`,
    [queue, jobIds],
    "reading the queue",
  );
  const out: ItemProgress = { waiting: 0, leased: {}, failed: [] };
  for (const r of rows) {
    if (r.state === "created" || r.state === "retry") out.waiting++;
    else if (r.state === "active") out.leased[r.worker ?? "(starting)"] = (out.leased[r.worker ?? "(starting)"] ?? 0) + 1;
    else if (r.state === "failed") out.failed.push({ key: r.key, item: r.item, message: r.message ?? "failed" });
  }
  return out;
}

/** Job ids among `ids` that failed for good (retries spent). */
export async function failedJobs(db: Database, queue: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(`SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'failed'`, [queue, ids], "reading the queue");
  return rows.map((r) => r.id);
}
