import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { FoundryConfig } from "../../core/config.js";
import { FoundryError } from "../../core/errors.js";
import { EpisodeResult } from "../../schemas/evaluation-result.js";
import { EvaluationSettings } from "../../evaluate/settings.js";
import { loadEvalRelease, type EvalRelease } from "../../evaluate/load-release.js";
import { envSimContext, episodeFactories, type EpisodeFactories } from "../../evaluate/episode-factories.js";
import { episodeSeed } from "../../evaluate/seeds.js";
import { keyOf, runEpisode, type PlannedEpisode } from "../../evaluate/episode-runner.js";
import { episodeId, traceFile } from "../../evaluate/results-log.js";
import { Condition } from "../../schemas/evaluation-result.js";
import { materialize } from "./blob-store.js";
import { workConfig } from "./work-spec.js";
import type { ItemHandler, WorkerContext } from "./item-handler.js";

/** What every worker needs to run any episode of one evaluation (the `work` row of kind `evaluation`). */
export const EvaluationSpec = z
  .object({
    settings: EvaluationSettings,
    /** The release's files (relative path → sha256), stored in the database. */
    release: z.record(z.string(), z.string()),
    config: FoundryConfig.partial(),
    /** A `replay:FILE` agent's trace file, stored in the database. */
    replay: z.object({ sha256: z.string(), file: z.string() }).strict().nullable(),
  })
  .strict();
export type EvaluationSpec = z.infer<typeof EvaluationSpec>;

/** One evaluation loaded in a worker: the release verified, the agent and customer ready. */
interface LoadedEvaluation {
  settings: EvaluationSettings;
  release: EvalRelease;
  factories: EpisodeFactories;
  ctx: Parameters<typeof runEpisode>[1];
}

async function load(spec: EvaluationSpec, w: WorkerContext): Promise<LoadedEvaluation> {
  const root = spec.settings.release.root_hash;
  const dir = await materialize(w.db, spec.release, join(w.cacheDir, "releases", root));
  const release = loadEvalRelease(dir);
  if (release.root_hash !== root) throw new FoundryError("RELEASE_TAMPERED", `the stored release has root hash ${release.root_hash}, the evaluation was of ${root}`, { file: dir }, release.root_hash);
  let replayFile: string | undefined;
  if (spec.replay) {
    replayFile = join(await materialize(w.db, { "replay.json": spec.replay.sha256 }, join(w.cacheDir, "replay", spec.replay.sha256)), "replay.json");
  }
  const factories = episodeFactories(spec.settings, workConfig(w.config, spec.config), { cache: w.responseCache }, replayFile);
  factories.preflight();
  const out = join(w.scratchDir, "episodes");
  return { settings: spec.settings, release, factories, ctx: { settings: spec.settings, agent: factories.agent, customer: factories.customer(), out, envSim: envSimContext(factories, spec.settings, workConfig(w.config, spec.config)) } };
}

/** The planned episode an item names (`domain/task/condition/run`), with its seed. */
function plannedOf(l: LoadedEvaluation, item: string): PlannedEpisode {
  const m = /^([^/]+)\/([^/]+)\/(E[0-3])\/(\d+)$/.exec(item);
  const task = m ? l.release.tasks.find((t) => t.domain.id === m[1] && t.task.id === m[2]) : undefined;
  if (!m || !task) throw new FoundryError("QUEUE_ITEM_INVALID", `episode ${item} is not in release ${l.release.name}@${l.release.version}`, {}, item);
  const condition = Condition.parse(m[3]);
  const run = Number(m[4]);
  return { item: task, condition, run, seed: episodeSeed(l.settings.seed, task.task.id, condition, run) };
}

/** An evaluation episode as a queue item: run it here, hand back its result line and its trace's exact bytes. */
export const episodeHandler: ItemHandler<LoadedEvaluation> = {
  kind: "episode",
  workKind: "evaluation",
  load: (spec, w) => load(EvaluationSpec.parse(spec), w),
  async run(l, item) {
    const p = plannedOf(l, item);
    if (episodeId(keyOf(p)) !== item) throw new FoundryError("QUEUE_ITEM_INVALID", `episode ${item} does not name one episode`, {}, item);
    const result = EpisodeResult.parse(await runEpisode(p, l.ctx));
    const file = join(l.ctx.out, traceFile(keyOf(p)));
    if (!existsSync(file)) throw new FoundryError("EPISODE_TRACE_MISSING", `episode ${item} wrote no trace`, { file });
    const trace = readFileSync(file, "utf8");
    rmSync(file, { force: true });
    return { value: JSON.stringify(result), attachment: trace };
  },
  close: (l) => l.factories.close(),
};
