import { Condition, EvaluationResult, type EpisodeResult } from "../../schemas/evaluation-result.js";
import { RandomStream } from "../../core/random.js";
import { FoundryError } from "../../core/errors.js";
import { inEpisodeOrder } from "./episode-order.js";
import { SLICE_KEYS, sliceScores, slicesBy } from "./slices.js";
import { passHatK } from "./pass-hat-k.js";
import { completionRates, robustness } from "./completion.js";
import { efficiency } from "./efficiency.js";
import { capRates } from "./caps.js";
import { totalUsage } from "./usage.js";
import { userSimAudit } from "./user-sim-audit.js";

/** The settings summarize needs; the whole object is copied into `summary.settings`. */
export interface SummarySettings {
  agent: string;
  user_sim: string;
  /** Evaluation seed: it seeds every bootstrap interval. */
  seed: number;
  /** Runs per task and condition (K of pass^k). */
  runs: number;
  conditions: readonly Condition[];
  [setting: string]: unknown;
}

/** The release an evaluation ran on. */
export interface SummaryRelease {
  name: string;
  version: string;
  root_hash: string;
}

/**
 * Every figure of `summary.json` from the episode results alone. Pure and independent of the
 * order of `results` (concurrent episodes finish in any order), so `synth score` reproduces it.
 * Errored episodes are counted and listed apart and left out of every rate.
 */
export function summarize(results: readonly EpisodeResult[], settings: SummarySettings, release: SummaryRelease): EvaluationResult {
  if (!Number.isInteger(settings.seed)) throw new FoundryError("SUMMARY_SETTINGS", "the evaluation seed must be an integer", { path: "settings.seed" }, settings.seed);
  if (!Number.isInteger(settings.runs) || settings.runs < 1) throw new FoundryError("SUMMARY_SETTINGS", "runs must be an integer of at least 1", { path: "settings.runs" }, settings.runs);
  const all = inEpisodeOrder(results);
  const done = all.filter((r) => r.status === "completed");
  const errored = all.filter((r) => r.status === "errored");
  const root = new RandomStream(settings.seed).fork("bootstrap");
  const conditions = [...settings.conditions].sort();
  const summary: EvaluationResult = {
    release: { name: release.name, version: release.version, root_hash: release.root_hash },
    agent: settings.agent,
    user_sim: settings.user_sim,
    settings: { ...settings },
    k: settings.runs,
    episodes: { total: all.length, completed: done.length, errored: errored.length },
    errored: errored.map((r) => ({ task: r.task, condition: r.condition, run: r.run, class: r.error?.class ?? "internal", message: r.error?.message ?? "errored without a reason" })),
    overall: sliceScores(all, root.fork("overall")),
    by_condition: slicesBy(all, SLICE_KEYS.condition, root.fork("by_condition")),
    by_domain: slicesBy(all, SLICE_KEYS.domain, root.fork("by_domain")),
    by_industry: slicesBy(all, SLICE_KEYS.industry, root.fork("by_industry")),
    by_difficulty: slicesBy(all, SLICE_KEYS.difficulty, root.fork("by_difficulty")),
    by_task: slicesBy(all, SLICE_KEYS.task, root.fork("by_task")),
    pass_hat_k: passHatK(all, conditions, settings.runs),
    completion: {},
    robustness: null,
    efficiency: efficiency(all) as unknown as Record<string, unknown>,
    caps: capRates(all, root.fork("caps")),
    usage: totalUsage(all),
    user_sim_audit: userSimAudit(all, root.fork("user_sim_audit")),
  };
  summary.completion = completionRates(all, conditions, root.fork("completion"));
  summary.robustness = robustness(summary.completion);
  // The summary is an artifact: it must satisfy its own schema before anyone writes it.
  return EvaluationResult.parse(summary);
}
