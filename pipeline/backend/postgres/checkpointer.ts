import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { Database } from "./database.js";

/** The schema of LangGraph's checkpoint tables. */
export const CHECKPOINT_SCHEMA = "foundry_checkpoints";

const savers = new WeakMap<Database, Promise<PostgresSaver>>();

/**
 * LangGraph's Postgres checkpointer on the backend's pool (one per database connection), its tables
 * created once; concurrent processes take turns creating them (an advisory lock).
 */
export function postgresCheckpointer(db: Database): Promise<PostgresSaver> {
  let p = savers.get(db);
  if (!p) {
    p = db.retrying("creating the checkpoint tables", async () => {
      const saver = new PostgresSaver(db.pool, undefined, { schema: CHECKPOINT_SCHEMA });
      const client = await db.pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(hashtext('foundry-checkpoints'))");
        await saver.setup();
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext('foundry-checkpoints'))").catch(() => undefined);
        client.release();
      }
      return saver;
    });
    p.catch(() => savers.delete(db));
    savers.set(db, p);
  }
  return p;
}
