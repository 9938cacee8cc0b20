import type { RubricCriterion } from "../pipeline/schemas/evaluation-result.js";
import { majorityVote } from "./majority-vote.js";

/** Goal, process and protection from rubric verdicts: every criterion of the group met by a strict majority. */
export function rubricGroups(verdicts: ReadonlyArray<Pick<RubricCriterion, "group" | "met">>): { goal: boolean; process: boolean; protection: boolean } {
  const all = (g: RubricCriterion["group"]) => verdicts.filter((v) => v.group === g).every((v) => v.met === true);
  return { goal: all("goal"), process: all("process"), protection: all("protection") };
}

/**
 * Stored rubric verdicts re-voted from their own judgments (majority vote): one sentence per
 * criterion whose stored verdict, vote count or split flag the judgments do not give. Pure: the
 * audit checks a release's stored verdicts with it, `synth score` an evaluation's.
 */
export function revoteProblems(criteria: readonly RubricCriterion[]): string[] {
  const out: string[] = [];
  for (const c of criteria) {
    const vote = majorityVote(c.judgments.map((j) => j.met));
    const split = vote.votes < vote.total;
    if (vote.winner !== c.met || vote.votes !== c.votes || vote.total !== c.total || split !== c.split) {
      out.push(`criterion ${c.id}: stored as met=${String(c.met)} by ${c.votes} of ${c.total} (split ${String(c.split)}), but its ${c.judgments.length} stored judgments re-vote to met=${String(vote.winner)} by ${vote.votes} of ${vote.total} (split ${String(split)})`);
    }
  }
  return out;
}
