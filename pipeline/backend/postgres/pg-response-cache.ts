import type { AIMessage } from "@langchain/core/messages";
import { canonicalJson } from "../../core/canonical-json.js";
import { CACHE_FORMAT_VERSION, type CacheEntry } from "../../llm/cache-key.js";
import { rehydrateAnswer, serializeAnswer, type ResponseCacheStats, type ResponseStore, type StoredAnswer } from "../../llm/response-cache.js";
import { SCHEMA } from "./schema.js";
import type { Database } from "./database.js";

/**
 * The LLM response cache in PostgreSQL: the same rows, keys and format as `llm-cache.sqlite` (each
 * message of a request stored once, in `llm_messages`), shared by every worker, so a request
 * answered once is answered from the cache everywhere.
 */
export class PgResponseCache implements ResponseStore {
  readonly #db: Database;
  readonly #stats: ResponseCacheStats = { hits: 0, misses: 0, writes: 0 };
  /** Message hashes this process has written: not sent again. */
  readonly #written = new Set<string>();

  constructor(db: Database) {
    this.#db = db;
  }

  async get(key: string): Promise<AIMessage | undefined> {
    const rows = await this.#db.query<{ response: string }>(`SELECT response FROM ${SCHEMA}.responses WHERE key = $1 AND format = $2`, [key, CACHE_FORMAT_VERSION], "reading the response cache");
    const row = rows[0];
    if (!row) {
      this.#stats.misses++;
      return undefined;
    }
    this.#stats.hits++;
    return rehydrateAnswer(JSON.parse(row.response) as StoredAnswer);
  }

  async put(entry: CacheEntry, model: string, answer: AIMessage): Promise<void> {
    const fresh = entry.messages.filter((m) => !this.#written.has(m.hash));
    if (fresh.length > 0) {
      await this.#db.query(
        `INSERT INTO ${SCHEMA}.llm_messages (hash, json) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (hash) DO NOTHING`,
        [fresh.map((m) => m.hash), fresh.map((m) => m.json)],
        "writing the response cache's messages",
      );
    }
    // Messages first: a response row never names a message that is not stored.
    await this.#db.query(
      `INSERT INTO ${SCHEMA}.responses (key, format, model, request, response) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO UPDATE SET format = EXCLUDED.format, model = EXCLUDED.model, request = EXCLUDED.request, response = EXCLUDED.response`,
      [entry.key, CACHE_FORMAT_VERSION, model, entry.request, canonicalJson(serializeAnswer(answer))],
      "writing the response cache",
    );
    for (const m of fresh) this.#written.add(m.hash);
    this.#stats.writes++;
  }

  stats(): ResponseCacheStats {
    return { ...this.#stats };
  }

  /** The pool belongs to the backend, which closes it. */
  close(): void {}
}
