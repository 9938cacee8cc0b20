import { unitIndex, type PlanStep } from "../../pipeline/schemas/index.js";
import type { MutantPlan, MutationInput, MutationOperator, NotApplicable } from "./types.js";
import { actionsOf, checksOfKind, executedCalls, moveBefore, na, operation, param } from "./lib.js";

const NAME = "reorder_dependent_steps";

/** Without an order check: the first two consecutive write steps of a workflow where the later requires the earlier. */
function fromSop(input: MutationInput): MutantPlan | NotApplicable {
  const writes = input.parsed
    .map((p, i) => ({ p, i, s: input.plan[i] }))
    .filter((x) => x.s !== null && x.p.action.type === "call" && operation(input, x.p.action.name)?.access === "write");
  for (let k = 0; k + 1 < writes.length; k++) {
    const a = writes[k] as (typeof writes)[number];
    const b = writes[k + 1] as (typeof writes)[number];
    const sa = input.task.reference_plan[a.s as number] as PlanStep;
    const sb = input.task.reference_plan[b.s as number] as PlanStep;
    const w = input.ctx.sop.workflows.find((x) => x.id === sa.workflow);
    if (!w || unitIndex(sa, input.task.workflows) !== unitIndex(sb, input.task.workflows) || !sa.sop_step || !sb.sop_step) continue;
    if (!w.steps.find((s) => s.id === sb.sop_step)?.requires.includes(sa.sop_step)) continue;
    const moved = moveBefore(actionsOf(input), b.i, a.i);
    const names = (x: typeof a) => (x.p.action.type === "call" ? x.p.action.name : "?");
    return { operator: NAME, target_check: null, description: `moved ${names(b)} (step ${sb.sop_step}) before ${names(a)} (step ${sa.sop_step}), which it requires`, actions: moved.list, mutated: [moved.at], refusalIsEquivalent: true };
  }
  return na(NAME, "the task has no executed_in_order check and the golden trace has no two consecutive dependent write steps");
}

export const reorderDependentSteps: MutationOperator = {
  name: NAME,
  description: "The agent performs a step before the step it depends on (and not again afterwards).",
  targets: ["executed_in_order"],
  generate(input) {
    const checks = checksOfKind(input, "executed_in_order");
    if (checks.length === 0) return [fromSop(input)];
    return checks.map((c) => {
      const before = String(param(c, "before"));
      const after = String(param(c, "after"));
      const b = executedCalls(input, before, (param(c, "before_args") as Record<string, unknown>) ?? {})[0];
      const a = executedCalls(input, after, (param(c, "after_args") as Record<string, unknown>) ?? {})[0];
      if (a === undefined || b === undefined) return na(NAME, `check ${c.id}: the golden trace does not execute both ${before} and ${after}`);
      const moved = moveBefore(actionsOf(input), a, b);
      return { operator: NAME, target_check: c.id, description: `moved ${after} (golden action ${a}) before ${before} (golden action ${b})`, actions: moved.list, mutated: [moved.at], refusalIsEquivalent: true };
    });
  },
};
