import type { EpisodeAction } from "../episode-actions.js";
import type { AcceptanceCheck } from "../../pipeline/schemas/index.js";
import type { MutantPlan, MutationInput, MutationOperator, NotApplicable } from "./types.js";
import { actionsOf, callEvent, checksOfKind, goldenValue, insertAt, na, operation, param, placeholder, without } from "./lib.js";
import { changedState } from "../checks/index.js";

const NAME = "take_other_branch";

/**
 * The agent takes the other branch of a decision: when the condition held, it leaves out the
 * operations the branch requires (and the approvals of what they proposed); when it did not hold,
 * it performs the branch's first operation anyway, at the end of the golden actions.
 */
export const takeOtherBranch: MutationOperator = {
  name: NAME,
  description: "At a decision, the agent takes the branch whose condition does not hold: the required branch's operations are skipped, or a branch not required is carried out.",
  targets: ["branch_followed"],
  generate(input) {
    const checks = checksOfKind(input, "branch_followed");
    if (checks.length === 0) return [na(NAME, "the task has no decision branch evaluated on its state")];
    return checks.map((c) => otherBranch(input, c, NAME));
  },
};

/**
 * The mutation of one branch_followed check: the branch's operations left out when its condition
 * held, or its first operation carried out when it did not (shared with follow_outdated_rule, for
 * a decision whose outcome an outdated version would flip).
 */
export function otherBranch(input: MutationInput, c: AcceptanceCheck, operator: string): MutantPlan | NotApplicable {
  const NAME = operator;
  const actions = actionsOf(input);

  const ops = (param(c, "operations") as string[]) ?? [];
  const args = (param(c, "args") as Record<string, unknown>) ?? {};
  if (param(c, "held") === true) {
    // Every golden call of the branch's operations that ran (proposals included), and the approvals of its proposals.
    const drop = new Set<number>();
    input.parsed.forEach((p, i) => {
      const a = p.action;
      if (a.type === "call" && ops.includes(a.name) && Object.entries(args).every(([k, v]) => String(a.args[k]) === String(v))) {
        const e = callEvent(input, p);
        if (e && changedState(e)) drop.add(i);
      }
      if (a.type === "approve" && a.proposal_of !== null && ops.includes(a.proposal_of)) drop.add(i);
    });
    if (drop.size === 0) return na(NAME, `${c.id}: the golden actions run none of ${ops.join(", ")}`);
    return { operator: NAME, target_check: c.id, description: `skipped ${ops.join(", ")} (golden actions ${[...drop].join(", ")}) although ${String(param(c, "when"))}`, actions: without(actions, drop), mutated: [], refusalIsEquivalent: false };
  }
  const op = operation(input, ops[0] ?? "");
  if (!op) return na(NAME, `${c.id}: operation ${ops[0] ?? "(none)"} is not in the world`);
  const callArgs: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(op.params)) {
    const v = args[name] ?? goldenValue(input, name);
    if (v !== undefined) callArgs[name] = v;
    else if (p.required) callArgs[name] = placeholder(p);
  }
  const call: EpisodeAction = { type: "call", name: op.name, args: callArgs };
  // A call the world refuses did not take the branch: that mutant is equivalent to the golden run.
  return { operator: NAME, target_check: c.id, description: `ran ${op.name} although it is not the case that ${String(param(c, "when"))}`, actions: insertAt(actions, actions.length, call), mutated: [actions.length], refusalIsEquivalent: true };
}
