import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { parseActions, runActionsDetailed } from "../episode-actions.js";
import { alignPlan } from "../align-plan.js";
import { judge, resultOf } from "../judge.js";
import { callText } from "./simulate.js";
import { isPlan, type MutantPlan, type MutationInput, type MutationOperator, type NotApplicable } from "./types.js";
import { MUTATION_OPERATORS } from "./registry.js";

/** One violation trace, judged. */
export interface MutantOutcome {
  operator: string;
  target_check: string | null;
  killed: boolean;
  failed_checks: string[];
  description: string;
  /** Why it was killed (the target check's reason) or why it survived. */
  reason: string;
  trace: Trace;
}

export interface MutationRun {
  mutants: MutantOutcome[];
  notApplicable: NotApplicable[];
}

const REFUSED: ReadonlySet<string> = new Set(["rejected", "errored", "faulted"]);

/** Run one mutant: equivalent (the world refused the violation) or judged. */
function runOne(ctx: DomainContext, task: Task, plan: MutantPlan): MutantOutcome | NotApplicable {
  const run = runActionsDetailed(ctx, task, plan.actions, { role: "violation", label: plan.operator });
  const mutatedSteps = plan.mutated.map((i) => run.steps[i]).filter((s) => s !== undefined);
  if (plan.refusalIsEquivalent && mutatedSteps.length > 0 && mutatedSteps.every((s) => REFUSED.has(s.outcome?.status ?? "errored"))) {
    const why = mutatedSteps.map((s) => `${s.action.type === "call" ? callText(s.action.name, s.action.args) : s.action.type} was ${s.outcome?.status ?? "errored"}${s.outcome?.reason ? ` (${s.outcome.reason})` : ""}`).join("; ");
    return { operator: plan.operator, reason: `equivalent mutant: the world itself refused the violation (${plan.description}: ${why})` };
  }
  const j = judge(ctx, task, run.trace);
  const target = plan.target_check === null ? undefined : resultOf(j, plan.target_check);
  const killed = target !== undefined && !target.passed;
  let reason: string;
  if (plan.target_check === null) reason = `no check of the kinds it targets exists in the task; failed checks: ${j.failed.length > 0 ? j.failed.join(", ") : "none"}`;
  else if (!target) reason = `target check ${plan.target_check} is not in the task`;
  else reason = target.reason;
  return { operator: plan.operator, target_check: plan.target_check, killed, failed_checks: j.failed, description: plan.description, reason, trace: run.trace };
}

/**
 * Gate 3's engine: every operator's mutants of the golden trace, each run through the episode and
 * judged. A mutant is killed when its target check fails; operators that do not apply, and mutants
 * the world itself refuses (equivalent), are listed apart.
 */
export function runMutants(ctx: DomainContext, task: Task, golden: Trace, operators: readonly MutationOperator[] = MUTATION_OPERATORS): MutationRun {
  const parsed = parseActions(golden);
  const input: MutationInput = { ctx, task, golden, parsed, plan: alignPlan(task, ctx.world, parsed, golden), checks: [...task.checks.goal, ...task.checks.process, ...task.checks.protection] };
  const mutants: MutantOutcome[] = [];
  const notApplicable: NotApplicable[] = [];
  for (const op of operators) {
    for (const x of op.generate(input)) {
      if (!isPlan(x)) {
        notApplicable.push(x);
        continue;
      }
      const r = runOne(ctx, task, x);
      if ("trace" in r) mutants.push(r);
      else notApplicable.push(r);
    }
  }
  return { mutants, notApplicable };
}
