import { afterAll, beforeAll, describe, expect } from "vitest";
import { PG_BIN, pgTest, startPostgres, type PgCluster } from "../helpers/postgres.js";
import { Database } from "../../pipeline/backend/postgres/database.js";
import { JobQueue } from "../../pipeline/backend/postgres/queue.js";

// Workers start together: each creates the queues it takes items from. Two creating the same queue
// at once must both go on (a worker that died there never registered, and its items waited for others).
describe("queues created by several processes at once", () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    if (PG_BIN || process.env.CI === "true") cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);

  pgTest(
    "four job queues create the same queues concurrently, round after round: every call succeeds and each queue exists once",
    async () => {
      const dbs = await Promise.all([0, 1, 2, 3].map(() => Database.open(cluster.url, "a test")));
      const queues: JobQueue[] = [];
      for (const db of dbs) queues.push(await JobQueue.open(db, { install: true, supervise: false }));
      try {
        const names = Array.from({ length: 12 }, (_, i) => `race-${i}`);
        for (const name of names) {
          const settled = await Promise.allSettled(queues.map((q) => q.ensureQueue(name)));
          expect(settled.map((s) => (s.status === "rejected" ? String((s.reason as Error).message) : "ok"))).toEqual(["ok", "ok", "ok", "ok"]);
        }
        const rows = await dbs[0]!.query<{ name: string }>("SELECT name FROM pgboss.queue WHERE name LIKE 'race-%' ORDER BY name", [], "reading the queues");
        expect(rows.map((r) => r.name).sort()).toEqual([...names].sort());
      } finally {
        for (const q of queues) await q.close();
        for (const db of dbs) await db.close();
      }
    },
    120_000,
  );
});
