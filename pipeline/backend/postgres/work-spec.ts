import { contentHash } from "../../core/canonical-json.js";
import { FoundryError } from "../../core/errors.js";
import type { FoundryConfig } from "../../core/config.js";
import { SCHEMA } from "./schema.js";
import type { Database } from "./database.js";

/** Settings that shape a model's answers and travel with the work to every worker (API keys never do). */
export const SHARED_CONFIG_KEYS = ["model", "models", "base_url", "seed", "max_retries", "timeout_ms", "temperature", "structured_output", "num_ctx"] as const;

/** The shared part of a configuration. */
export function sharedConfig(config: FoundryConfig): Partial<FoundryConfig> {
  return Object.fromEntries(SHARED_CONFIG_KEYS.map((k) => [k, config[k]])) as Partial<FoundryConfig>;
}

/** A worker's configuration for one piece of work: its own (cache folder, concurrency, keys in its environment) with the work's shared settings. */
export function workConfig(own: FoundryConfig, shared: Partial<FoundryConfig>): FoundryConfig {
  return { ...own, ...shared };
}

/** The key of a piece of work (an evaluation, a build's inputs): a hash of everything its items' results depend on. */
export function workKey(kind: string, spec: unknown, code: string): string {
  return contentHash({ v: 1, kind, code, spec });
}

/** The idempotency key of one item of a piece of work. */
export function itemKey(parent: string, item: string): string {
  return contentHash({ v: 1, parent, item });
}

/** Record a piece of work (once; the same key always holds the same spec). */
export async function putWork(db: Database, key: string, kind: string, spec: unknown): Promise<void> {
  await db.query(`INSERT INTO ${SCHEMA}.work (key, kind, spec) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`, [key, kind, JSON.stringify(spec)], "recording the work");
}

/** A piece of work as recorded; missing is an error naming the key. */
export async function getWork(db: Database, key: string): Promise<{ kind: string; spec: unknown }> {
  const rows = await db.query<{ kind: string; spec: unknown }>(`SELECT kind, spec FROM ${SCHEMA}.work WHERE key = $1`, [key], "reading the work");
  if (!rows[0]) throw new FoundryError("DATABASE_WORK_MISSING", `no work ${key} in the database (the item outlived its evaluation or build record)`, {}, key);
  return rows[0];
}
