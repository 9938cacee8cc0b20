import { afterAll, beforeAll, describe, expect } from "vitest";
import { PG_BIN, pgTest, startPostgres, type PgCluster } from "../helpers/postgres.js";
import { Database } from "../../pipeline/backend/postgres/database.js";
import { ensureSchema } from "../../pipeline/backend/postgres/schema.js";
import { JobQueue } from "../../pipeline/backend/postgres/queue.js";
import { itemKey } from "../../pipeline/backend/postgres/work-spec.js";
import { hasResult, writeResult } from "../../pipeline/backend/postgres/results-store.js";
import { FoundryError } from "../../pipeline/core/errors.js";

// A database restart during a run: queries wait for the server and carry on; a server that stays
// away past the reconnect window stops the command with DATABASE_LOST (a rerun continues).
describe("the postgres backend across a database restart", () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    if (PG_BIN || process.env.CI === "true") cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.destroy(), 60_000);

  pgTest(
    "queries, the job queue and results go on after the server restarts; a server gone too long is a clear DATABASE_LOST",
    async () => {
      const db = await Database.open(cluster.url, "test");
      await ensureSchema(db);
      const queue = await JobQueue.open(db, { install: true, supervise: false });
      try {
        const name = "foundry_episode_00000000000000aa";
        const key = itemKey("parent", "e1");
        await queue.enqueue(name, [{ key, parent: "parent", item: "e1" }], { leaseSeconds: 30, retries: 1 });

        cluster.stop();
        const waiting = db.query<{ x: number }>("SELECT 1 AS x");
        await new Promise((r) => setTimeout(r, 1500));
        cluster.start();
        expect(await waiting).toEqual([{ x: 1 }]);

        // pg-boss reconnects too: the item enqueued before the restart is taken, its result written once.
        let item = null;
        for (let i = 0; i < 20 && !item; i++) {
          item = await queue.take(name);
          if (!item) await new Promise((r) => setTimeout(r, 250));
        }
        expect(item?.data).toEqual({ key, parent: "parent", item: "e1" });
        expect(await writeResult(db, { key, parent: "parent", item: "e1", value: "{}", attachment: null, worker: "w" })).toBe(true);
        expect(await writeResult(db, { key, parent: "parent", item: "e1", value: "{}", attachment: null, worker: "w2" })).toBe(false);
        expect(await hasResult(db, key)).toBe(true);
      } finally {
        await queue.close();
        await db.close();
      }

      const short = await Database.open(cluster.url, "test", 1500);
      cluster.stop();
      try {
        const err = await short.query("SELECT 1").then(() => null, (e: unknown) => e);
        expect(FoundryError.is(err) && err.code).toBe("DATABASE_LOST");
        expect((err as Error).message).toMatch(/^database query: lost the database at postgresql:\/\/foundry:\*\*\*@\/foundry\?host=\S+ for \d+ s \(.*\); nothing finished is lost: rerun the same command to continue$/);
      } finally {
        cluster.start();
        await short.close();
      }
    },
    120_000,
  );
});
