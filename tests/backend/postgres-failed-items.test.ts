import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { PG_BIN, pgTest, startPostgres, type PgCluster } from "../helpers/postgres.js";
import { resolveConfig } from "../../pipeline/core/config.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { PostgresBackend } from "../../pipeline/backend/postgres/postgres-backend.js";
import { queueName } from "../../pipeline/backend/postgres/queue.js";
import { itemKey } from "../../pipeline/backend/postgres/work-spec.js";
import { runWorker } from "../../pipeline/backend/postgres/worker.js";
import { waitForItems } from "../../pipeline/backend/postgres/wait-items.js";
import { queueStatus, retryFailed } from "../../pipeline/backend/postgres/queue-status.js";
import { Database } from "../../pipeline/backend/postgres/database.js";
import { claimOutput } from "../../pipeline/backend/postgres/output-claim.js";

// An item that cannot run (its evaluation's record is missing) fails each attempt; with its retries
// spent it is failed for good, the waiting coordinator stops naming it and its error, the status
// counts it, and retry-failed puts it back in the queue.
describe("items that fail for good", () => {
  let cluster: PgCluster;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "foundry-pg-failed-"));
    if (PG_BIN || process.env.CI === "true") cluster = await startPostgres();
  }, 60_000);
  afterAll(() => {
    cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  pgTest(
    "bounded retries, then QUEUE_ITEMS_FAILED naming the item; queue status counts it; retry-failed puts it back",
    async () => {
      const config = { ...resolveConfig({ env: {}, configFile: null }), database_url: cluster.url, cache_dir: join(dir, "cache"), item_retries: 1, lease_seconds: 30 };
      const pg = await PostgresBackend.open(config, () => undefined);
      const name = queueName("episode", pg.code);
      const key = itemKey("no-such-evaluation", "fx/t1/E0/0");
      try {
        await pg.queue.enqueue(name, [{ key, parent: "no-such-evaluation", item: "fx/t1/E0/0" }], pg.bounds);
        // One worker, not following: it takes the item, fails it, takes its retry (after the backoff), fails it again, and stops.
        const lines: string[] = [];
        const out = await runWorker({ config, follow: false, pollMs: 200, log: (l) => lines.push(l) });
        expect({ done: out.done, failed: out.failed }).toEqual({ done: 0, failed: 2 });
        expect(lines.filter((l) => l.startsWith("failed episode"))).toEqual([
          "failed episode fx/t1/E0/0: DATABASE_WORK_MISSING: no work no-such-evaluation in the database (the item outlived its evaluation or build record)",
          "failed episode fx/t1/E0/0: DATABASE_WORK_MISSING: no work no-such-evaluation in the database (the item outlived its evaluation or build record)",
        ]);
        const err = await waitForItems({ db: pg.db, queue: name, keys: [key], rerun: "rerun the evaluation", onResult: () => undefined }).then(() => null, (e: unknown) => e);
        expect(FoundryError.is(err) && err.code).toBe("QUEUE_ITEMS_FAILED");
        expect((err as Error).message).toBe(
          "1 item(s) failed after their retries (fx/t1/E0/0: DATABASE_WORK_MISSING: no work no-such-evaluation in the database (the item outlived its evaluation or build record)); fix the cause, then `synth queue retry-failed` and rerun the evaluation",
        );
        const before = await queueStatus(cluster.url);
        expect(before.queues.map(({ kind, waiting, leased, done, failed }) => ({ kind, waiting, leased, done, failed }))).toEqual([{ kind: "episode", waiting: 0, leased: 0, done: 0, failed: 1 }]);
        expect(before.workers.map((w) => ({ state: w.state, failed: w.failed, done: w.done }))).toEqual([{ state: "stopped", failed: 2, done: 0 }]);
        expect(await retryFailed(cluster.url)).toEqual({ [name]: 1 });
        const after = await queueStatus(cluster.url);
        expect(after.queues.map(({ waiting, failed }) => ({ waiting, failed }))).toEqual([{ waiting: 1, failed: 0 }]);
      } finally {
        await pg.close();
      }
    },
    120_000,
  );

  pgTest(
    "two evaluations writing one output folder never interleave: the second is refused (OUTPUT_BUSY) naming the first, until it ends",
    async () => {
      const a = await Database.open(cluster.url, "first");
      const b = await Database.open(cluster.url, "second");
      const out = join(dir, "same-out");
      try {
        const first = await claimOutput(a, out, "synth evaluate --agent oracle");
        const err = await claimOutput(b, out, "synth evaluate --agent noop").then(() => null, (e: unknown) => e);
        expect(FoundryError.is(err) && err.code).toBe("OUTPUT_BUSY");
        expect((err as Error).message).toMatch(new RegExp(`^synth evaluate --agent oracle \\(pid ${process.pid} on \\S+\\) is writing ${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} now; wait for it to end, or choose another output folder$`));
        // Another folder is free meanwhile; the same folder is free once the first ends.
        await (await claimOutput(b, join(dir, "other-out"), "synth evaluate --agent noop")).release();
        await first.release();
        await (await claimOutput(b, out, "synth evaluate --agent noop")).release();
      } finally {
        await a.close();
        await b.close();
      }
    },
    60_000,
  );
});
