import { SCHEMA } from "./schema.js";
import type { Database } from "./database.js";

/** One finished item: its value (JSON text) and an attachment (a trace's exact bytes), as first written. */
export interface StoredResult {
  key: string;
  item: string;
  value: string;
  attachment: string | null;
  worker: string;
}

/** Write an item's result once: true when this call wrote it, false when another attempt had already. */
export async function writeResult(db: Database, r: StoredResult & { parent: string }): Promise<boolean> {
  const rows = await db.query(`INSERT INTO ${SCHEMA}.results (key, parent, item, value, attachment, worker) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING RETURNING key`, [r.key, r.parent, r.item, r.value, r.attachment, r.worker], "writing a result");
  return rows.length === 1;
}

/** Whether an item's result is written. */
export async function hasResult(db: Database, key: string): Promise<boolean> {
  return (await db.query(`SELECT 1 FROM ${SCHEMA}.results WHERE key = $1`, [key], "reading results")).length === 1;
}

/** The results among `keys` (all columns), skipping the keys in `except`. */
export async function readResults(db: Database, keys: readonly string[], except: ReadonlySet<string> = new Set()): Promise<StoredResult[]> {
  const want = keys.filter((k) => !except.has(k));
  if (want.length === 0) return [];
  return db.query<StoredResult>(`SELECT key, item, value, attachment, worker FROM ${SCHEMA}.results WHERE key = ANY($1)`, [want], "reading results");
}
