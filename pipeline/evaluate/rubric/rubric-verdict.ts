import type { RubricCriterion, RubricJudgment } from "../../schemas/evaluation-result.js";
import { majorityVote } from "../../../validation/majority-vote.js";
import type { Criterion } from "./criteria.js";

/**
 * Each criterion's majority verdict over its judgments (validation/majority-vote.ts), with every
 * judgment kept; a split vote (2–1) says so. Pure: `synth score` re-votes the stored judgments.
 */
export function rubricVerdicts(criteria: readonly Criterion[], judgments: ReadonlyMap<string, readonly RubricJudgment[]>): RubricCriterion[] {
  return criteria.map((c) => {
    const js = [...(judgments.get(c.id) ?? [])];
    const vote = majorityVote(js.map((j) => j.met));
    return { id: c.id, group: c.group, text: c.text, met: vote.winner, votes: vote.votes, total: vote.total, split: vote.votes < vote.total, judgments: js };
  });
}

/** Goal, process and protection from the verdicts: every criterion of the group met by a strict majority (validation's, shared with the audit). */
export { rubricGroups } from "../../../validation/rubric-revote.js";
