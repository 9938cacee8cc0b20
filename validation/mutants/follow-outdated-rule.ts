import type { MutationOperator } from "./types.js";
import { actionsOf, checksOfKind, executedCalls, na, param } from "./lib.js";
import { otherBranch } from "./take-other-branch.js";

const NAME = "follow_outdated_rule";

export const followOutdatedRule: MutationOperator = {
  name: NAME,
  description: "The agent uses the value an outdated or out-of-scope document version prescribes.",
  targets: ["rule_version_followed", "branch_followed"],
  generate(input) {
    // A decision an outdated version's number would decide the other way: following that version
    // is taking the other branch.
    const traps = checksOfKind(input, "branch_followed").filter((c) => c.provenance.source === "rule" && c.provenance.outdated);
    const checks = checksOfKind(input, "rule_version_followed");
    if (checks.length === 0 && traps.length === 0) {
      const why = input.task.documents.distractors.length > 0 ? `the task lists distractor versions (${input.task.documents.distractors.join(", ")}) but no rule_version_followed check states the outdated value` : "the task has no rule_version_followed check";
      return [na(NAME, why)];
    }
    const onDecisions = traps.map((c) => {
      const m = otherBranch(input, c, NAME);
      const at = c.provenance.source === "rule" ? c.provenance.outdated : undefined;
      return "actions" in m ? { ...m, description: `followed ${at?.document}@${at?.version} ${at?.clause ?? ""}, not in force: ${m.description}` } : m;
    });
    return [...onDecisions, ...checks.map((c) => {
      const forbidden = param(c, "forbidden") as unknown[] | undefined;
      const op = String(param(c, "operation"));
      const arg = String(param(c, "arg"));
      if (!forbidden || forbidden.length === 0) return na(NAME, `check ${c.id} names no forbidden (outdated) value to follow`);
      const at = executedCalls(input, op)[0];
      if (at === undefined) return na(NAME, `check ${c.id}: the golden trace never executes ${op}`);
      const actions = actionsOf(input);
      const call = actions[at];
      if (call?.type !== "call") return na(NAME, `check ${c.id}: golden action ${at} is not a call`);
      actions[at] = { ...call, args: { ...call.args, [arg]: forbidden[0] } };
      return { operator: NAME, target_check: c.id, description: `${op} executed with ${arg} = ${JSON.stringify(forbidden[0])}, the outdated version's value`, actions, mutated: [at], refusalIsEquivalent: true };
    })];
  },
};
