import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { compileBuildGraph } from "../graph/build-graph.js";
import type { ResponseStore } from "../llm/response-cache.js";
import type { RunEntry } from "./run-index.js";
import type { SlotRunner } from "./services.js";

/**
 * Where a build keeps its checkpoints and does its per-slot work: embedded (SQLite checkpoints under
 * generated/runs/, every stage in this process), or the postgres backend (LangGraph's Postgres
 * checkpointer, each task slot a queue item). Chosen in pipeline/backend/open-backend.ts.
 */
export interface BuildBackend {
  readonly kind: "embedded" | "postgres";
  /** The checkpointer of a run's domain threads. */
  checkpointer(entry: RunEntry): Promise<BaseCheckpointSaver>;
  /** The graph a domain thread runs. */
  compile(checkpointer: BaseCheckpointSaver): ReturnType<typeof compileBuildGraph>;
  /** The LLM response cache (default: llm-cache.sqlite under the cache folder). */
  readonly responseCache?: ResponseStore;
  /** Per-slot work elsewhere (postgres). */
  slots?(entry: RunEntry): SlotRunner;
}

/** Today's single-process build. */
export const embeddedBuild: BuildBackend = {
  kind: "embedded",
  checkpointer: async (entry) => SqliteSaver.fromConnString(join(entry.paths.generated, "runs", "checkpoints.sqlite")),
  compile: (cp) => compileBuildGraph(cp),
};
