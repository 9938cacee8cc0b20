import { realpathSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import type pg from "pg";
import { FoundryError } from "../../core/errors.js";
import { SCHEMA } from "./schema.js";
import type { Database } from "./database.js";

/** An output folder claimed by this process; release it when done. */
export interface OutputClaim {
  release(): Promise<void>;
}

/**
 * Claim an output folder (host and real path) for this process with a session advisory lock, so two
 * evaluations or builds writing the same folder never interleave their results: the second is
 * refused naming the holder. The lock dies with the session, so a killed process's claim is free.
 */
export async function claimOutput(db: Database, folder: string, what: string): Promise<OutputClaim> {
  let path = resolve(folder);
  try {
    path = realpathSync(folder);
  } catch {
    // Not created yet: its resolved path names it.
  }
  const output = `${hostname()}:${path}`;
  const client: pg.PoolClient = await db.retrying("claiming the output folder", () => db.pool.connect());
  const got = (await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext('foundry-output'), hashtext($1)) AS ok", [output])).rows[0]?.ok;
  if (!got) {
    const holder = (await client.query<{ holder: string }>(`SELECT holder FROM ${SCHEMA}.outputs WHERE output = $1`, [output])).rows[0]?.holder ?? "another process";
    client.release();
    throw new FoundryError("OUTPUT_BUSY", `${holder} is writing ${folder} now; wait for it to end, or choose another output folder`, { file: folder }, holder);
  }
  const holder = `${what} (pid ${process.pid} on ${hostname()})`;
  await client.query(`INSERT INTO ${SCHEMA}.outputs (output, holder) VALUES ($1, $2) ON CONFLICT (output) DO UPDATE SET holder = EXCLUDED.holder, since = now()`, [output, holder]);
  return {
    release: async () => {
      await client.query("SELECT pg_advisory_unlock(hashtext('foundry-output'), hashtext($1))", [output]).catch(() => undefined);
      client.release();
    },
  };
}
