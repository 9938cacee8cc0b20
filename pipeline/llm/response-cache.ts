import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { AIMessage } from "@langchain/core/messages";
import { canonicalJson } from "../core/canonical-json.js";
import { CACHE_FORMAT_VERSION, type CacheEntry } from "./cache-key.js";

/** File name of the response cache inside `cache_dir`. */
export const RESPONSE_CACHE_FILE = "llm-cache.sqlite";

/** What is kept of an answer: enough to hand back an equivalent AIMessage. */
export interface StoredAnswer {
  content: unknown;
  tool_calls: unknown[];
  invalid_tool_calls: unknown[];
  usage_metadata: unknown;
  response_metadata: Record<string, unknown>;
  /** Provider extras, e.g. OpenAI's `refusal`. */
  additional_kwargs: Record<string, unknown>;
  id: string | null;
}

/** Counters of one cache since it was opened. */
export interface ResponseCacheStats {
  hits: number;
  misses: number;
  writes: number;
}

/**
 * Where the runtime keeps answers: this SQLite cache (embedded), or the postgres backend's table.
 * Methods may answer synchronously or with a promise.
 */
export interface ResponseStore {
  get(key: string): AIMessage | undefined | Promise<AIMessage | undefined>;
  /** Store a successful answer with its request; each message of the request is stored once (by its hash). */
  put(entry: CacheEntry, model: string, answer: AIMessage): void | Promise<void>;
  stats(): ResponseCacheStats;
  close(): void;
}

/** Round-trip through JSON: drops undefined and anything that is not data. */
function plain<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** The stored form of an AIMessage. */
export function serializeAnswer(message: AIMessage): StoredAnswer {
  return {
    content: plain(message.content),
    tool_calls: plain(message.tool_calls ?? []),
    invalid_tool_calls: plain(message.invalid_tool_calls ?? []),
    usage_metadata: plain(message.usage_metadata) ?? null,
    response_metadata: plain(message.response_metadata ?? {}),
    additional_kwargs: plain(message.additional_kwargs ?? {}),
    id: message.id ?? null,
  };
}

/** The answer as the cache stores it (canonical JSON: keys sorted), read back: what a fresh answer and a cache hit both become. */
export function storedForm(message: AIMessage): AIMessage {
  return rehydrateAnswer(JSON.parse(canonicalJson(serializeAnswer(message))) as StoredAnswer);
}

/** An AIMessage rebuilt from its stored form. */
export function rehydrateAnswer(stored: StoredAnswer): AIMessage {
  const fields: ConstructorParameters<typeof AIMessage>[0] & object = {
    content: stored.content as string,
    tool_calls: stored.tool_calls as AIMessage["tool_calls"],
    invalid_tool_calls: stored.invalid_tool_calls as AIMessage["invalid_tool_calls"],
    response_metadata: stored.response_metadata,
    additional_kwargs: stored.additional_kwargs ?? {},
  };
  if (stored.usage_metadata) fields.usage_metadata = stored.usage_metadata as AIMessage["usage_metadata"];
  if (stored.id) fields.id = stored.id;
  return new AIMessage(fields);
}

/**
 * Content-addressed answers in SQLite (WAL). Only successful answers are ever written, so a
 * failure is retried on the next build instead of being replayed. A row's request holds its
 * messages as hashes; the `messages` table holds each message's canonical JSON once, so a
 * conversation of n calls stores its messages once instead of n times over.
 */
export class ResponseCache implements ResponseStore {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string], { response: string }>;
  readonly #put: Database.Statement<[string, string, string, string]>;
  readonly #putMessage: Database.Statement<[string, string]>;
  /** Message hashes this connection has written: not written again. */
  readonly #written = new Set<string>();
  readonly #stats: ResponseCacheStats = { hits: 0, misses: 0, writes: 0 };

  /** Open (creating if needed) the cache at `path`; `:memory:` for a private in-memory cache. */
  constructor(path: string) {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.path = path;
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    // A cache: a power cut may lose the last answers written (they are asked again), never corrupt the file.
    this.#db.pragma("synchronous = NORMAL");
    // Two builds sharing one cache wait for each other's short writes instead of failing.
    this.#db.pragma("busy_timeout = 5000");
    this.#db.exec(
      `CREATE TABLE IF NOT EXISTS responses (
         key TEXT PRIMARY KEY,
         format INTEGER NOT NULL,
         model TEXT NOT NULL,
         request TEXT NOT NULL,
         response TEXT NOT NULL
       );
       CREATE TABLE IF NOT EXISTS messages (
         hash TEXT PRIMARY KEY,
         json TEXT NOT NULL
       )`,
    );
    this.#get = this.#db.prepare(`SELECT response FROM responses WHERE key = ? AND format = ${CACHE_FORMAT_VERSION}`);
    this.#put = this.#db.prepare(`INSERT OR REPLACE INTO responses (key, format, model, request, response) VALUES (?, ${CACHE_FORMAT_VERSION}, ?, ?, ?)`);
    this.#putMessage = this.#db.prepare("INSERT OR IGNORE INTO messages (hash, json) VALUES (?, ?)");
  }

  /** The cache file under a configuration's `cache_dir`. */
  static inDir(cacheDir: string): ResponseCache {
    return new ResponseCache(join(cacheDir, RESPONSE_CACHE_FILE));
  }

  /** The stored answer for `key`, counting a hit or a miss. */
  get(key: string): AIMessage | undefined {
    const row = this.#get.get(key);
    if (!row) {
      this.#stats.misses++;
      return undefined;
    }
    this.#stats.hits++;
    return rehydrateAnswer(JSON.parse(row.response) as StoredAnswer);
  }

  /** Store a successful answer under its request's key, with the request and its new messages, in one transaction. */
  put(entry: CacheEntry, model: string, answer: AIMessage): void {
    const fresh = entry.messages.filter((m) => !this.#written.has(m.hash));
    this.#db.transaction(() => {
      for (const m of fresh) this.#putMessage.run(m.hash, m.json);
      this.#put.run(entry.key, model, entry.request, canonicalJson(serializeAnswer(answer)));
    })();
    for (const m of fresh) this.#written.add(m.hash);
    this.#stats.writes++;
  }

  /** The stored request of `key` with its messages put back (for auditing a hit); undefined when absent. */
  request(key: string): unknown {
    const row = this.#db.prepare("SELECT request FROM responses WHERE key = ?").get(key) as { request: string } | undefined;
    if (!row) return undefined;
    const req = JSON.parse(row.request) as { messages: string[] };
    const get = this.#db.prepare("SELECT json FROM messages WHERE hash = ?");
    return { ...req, messages: req.messages.map((h) => JSON.parse((get.get(h) as { json: string }).json)) };
  }

  /** Distinct messages stored. */
  messageCount(): number {
    return (this.#db.prepare("SELECT count(*) AS n FROM messages").get() as { n: number }).n;
  }

  /** Entries stored (all formats). */
  size(): number {
    return (this.#db.prepare("SELECT count(*) AS n FROM responses").get() as { n: number }).n;
  }

  stats(): ResponseCacheStats {
    return { ...this.#stats };
  }

  close(): void {
    this.#db.close();
  }
}
