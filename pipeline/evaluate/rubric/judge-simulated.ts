import type { EpisodeResult, RubricJudgment } from "../../schemas/evaluation-result.js";
import { episodeResult, type JudgeInput } from "../judge-episode.js";
import { rubricCriteria } from "./criteria.js";
import { rubricGroups, rubricVerdicts } from "./rubric-verdict.js";

/**
 * A simulated episode's result: judged by the rubric verifier only (the majority of each
 * criterion's judgments), never by the release's executable checks (`checks` stays empty); every
 * judgment is stored in `rubric`. Pure given the judgments, so `synth score` re-derives it.
 */
export function judgeSimulatedEpisode(input: JudgeInput, judgments: ReadonlyMap<string, readonly RubricJudgment[]>): EpisodeResult {
  // An episode that errored before it could be judged has no judgments: it is left out of every rate anyway.
  if ([...judgments.values()].every((j) => j.length === 0)) return episodeResult(input, { goal: false, process: false, protection: false, checks: [], rubric: [] }, "simulated");
  const verdicts = rubricVerdicts(rubricCriteria(input.task), judgments);
  return episodeResult(input, { ...rubricGroups(verdicts), checks: [], rubric: verdicts }, "simulated");
}

/** The judgments a stored simulated result holds, by criterion (what `synth score` re-votes). */
export function storedJudgments(r: Pick<EpisodeResult, "rubric">): Map<string, RubricJudgment[]> {
  return new Map((r.rubric ?? []).map((c) => [c.id, c.judgments]));
}
