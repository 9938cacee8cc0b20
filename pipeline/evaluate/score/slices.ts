import type { EpisodeResult, SliceScores } from "../../schemas/evaluation-result.js";
import type { RandomStream } from "../../core/random.js";
import { rateOf } from "./rate.js";
import { taskKey } from "./episode-order.js";

/** Slice label of a task without a difficulty label. */
export const UNLABELLED = "unlabelled";

/** The scores of one slice of episodes; `stream` seeds its intervals (one fork per rate). */
export function sliceScores(episodes: readonly EpisodeResult[], stream: RandomStream): SliceScores {
  return {
    strict_success: rateOf(episodes, (r) => r.strict_success, stream.fork("strict_success")),
    goal: rateOf(episodes, (r) => r.goal, stream.fork("goal")),
    process: rateOf(episodes, (r) => r.process, stream.fork("process")),
    protection: rateOf(episodes, (r) => r.protection, stream.fork("protection")),
    goal_reached_but_invalid: rateOf(episodes, (r) => r.goal_reached_but_invalid, stream.fork("goal_reached_but_invalid")),
    episodes: episodes.filter((r) => r.status === "completed").length,
  };
}

/** What a slice dimension groups episodes by. */
export const SLICE_KEYS = {
  condition: (r: EpisodeResult) => r.condition,
  domain: (r: EpisodeResult) => r.domain,
  industry: (r: EpisodeResult) => r.industry,
  difficulty: (r: EpisodeResult) => r.difficulty ?? UNLABELLED,
  task: (r: EpisodeResult) => taskKey(r),
} as const;

/**
 * Scores per value of `key` (every value some episode has, errored ones included, so a slice
 * whose episodes all errored shows with 0 counted episodes); keys sorted.
 */
export function slicesBy(results: readonly EpisodeResult[], key: (r: EpisodeResult) => string, stream: RandomStream): Record<string, SliceScores> {
  const groups = new Map<string, EpisodeResult[]>();
  for (const r of results) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  const out: Record<string, SliceScores> = {};
  for (const k of [...groups.keys()].sort()) out[k] = sliceScores(groups.get(k) as EpisodeResult[], stream.fork(k));
  return out;
}
