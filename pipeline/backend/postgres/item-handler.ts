import type { FoundryConfig } from "../../core/config.js";
import type { ResponseStore } from "../../llm/response-cache.js";
import type { Database } from "./database.js";
import type { ItemKind } from "./queue.js";

/** What a worker gives every item it runs. */
export interface WorkerContext {
  db: Database;
  /** The worker's own configuration (its cache folder, its environment's keys). */
  config: FoundryConfig;
  /** The LLM response cache in the database. */
  responseCache: ResponseStore;
  /** Files the worker keeps between items (releases, domain inputs), under its cache_dir. */
  cacheDir: string;
  /** This worker's private scratch folder. */
  scratchDir: string;
  workerId: string;
}

/**
 * One kind of queue item: how to load its work (once per evaluation or build, kept while the worker
 * runs) and how to run one item of it to a result value and attachment.
 */
export interface ItemHandler<L = unknown> {
  kind: ItemKind;
  /** The `work` row kind its items belong to. */
  workKind: string;
  /** `parent`: the work's key. */
  load(spec: unknown, w: WorkerContext, parent: string): Promise<L>;
  run(loaded: L, item: string, w: WorkerContext): Promise<{ value: string; attachment: string | null }>;
  close(loaded: L): void;
}
