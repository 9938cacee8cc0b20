import PQueue from "p-queue";
import type { FoundryConfig } from "../core/config.js";
import type { EpisodeResult } from "../schemas/evaluation-result.js";
import type { EvalRelease } from "./load-release.js";
import type { EvaluationSettings } from "./settings.js";
import type { PlannedEpisode } from "./episode-runner.js";

/** The episodes of one evaluation still to run, and what to do with each result. */
export interface EpisodeBatch {
  settings: EvaluationSettings;
  release: EvalRelease;
  /** The configuration the evaluation's LLM runtime is built from. */
  config: FoundryConfig;
  /** The evaluation folder. */
  out: string;
  /** Every planned episode, in plan order. */
  planned: readonly PlannedEpisode[];
  /** The planned episodes results.jsonl does not hold yet. */
  todo: readonly PlannedEpisode[];
  /** Episodes in flight at once in this process. */
  concurrency: number;
  /** Run one episode here (writes its trace under `out`). */
  run(p: PlannedEpisode): Promise<EpisodeResult>;
  /** Record a finished episode (appended to results.jsonl, progress); its trace is already under `out`. */
  finished(result: EpisodeResult): void;
}

/**
 * How an evaluation's episodes get run: here on a p-queue (embedded), or as items of the postgres
 * backend's job queue worked by `synth worker` processes. Chosen in one place
 * (pipeline/backend/open-backend.ts); the evaluator sees only this interface.
 */
export interface EpisodeRunner {
  readonly kind: "embedded" | "postgres";
  runAll(batch: EpisodeBatch): Promise<void>;
}

/** The embedded runner: every episode in this process, `concurrency` at a time. */
export const localEpisodes: EpisodeRunner = {
  kind: "embedded",
  async runAll(batch) {
    const queue = new PQueue({ concurrency: Math.max(1, batch.concurrency) });
    await Promise.all(batch.todo.map((p) => queue.add(async () => batch.finished(await batch.run(p)))));
  },
};
