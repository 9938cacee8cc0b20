import { unitIndex, type PlanStep, type SopWorkflow, type Task, type Trace } from "../pipeline/schemas/index.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { parseActions, type EpisodeAction, type ParsedAction } from "./episode-actions.js";
import { alignPlan } from "./align-plan.js";

/** Another permitted execution of a task: the golden actions in another order the SOP allows. */
export interface Alternative {
  label: string;
  actions: EpisodeAction[];
}

/** Whether step `a` must come before step `b` in the workflow (transitively through `requires`). */
function precedes(w: SopWorkflow, a: string, b: string): boolean {
  const byId = new Map(w.steps.map((s) => [s.id, s]));
  const seen = new Set<string>();
  const stack = [...(byId.get(b)?.requires ?? [])];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (id === a) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(byId.get(id)?.requires ?? []));
  }
  return false;
}

/** Facts an action's events disclosed. */
function disclosed(p: ParsedAction, trace: Trace): string[] {
  return p.events.flatMap((i) => trace.events[i - 1]?.facts ?? []);
}

/** Whether action `b` needs what action `a` produced: a fact `a` elicited, or the proposal `a` made. */
function needs(task: Task, trace: Trace, a: ParsedAction, b: ParsedAction): boolean {
  if (b.action.type === "approve" && a.action.type === "call" && b.action.proposal_of === a.action.name) return true;
  if (b.action.type !== "call" && b.action.type !== "customer_call") return false;
  const args = Object.values(b.action.args);
  return disclosed(a, trace).some((id) => {
    const fact = task.scenario.private_facts.find((f) => f.id === id);
    return fact !== undefined && args.some((v) => v === fact.value || String(v) === String(fact.value));
  });
}

/**
 * Alternatives from the SOP's dependency structure: for two consecutive plan actions whose steps
 * belong to the same workflow and neither requires the other, the order swapped (actions outside
 * the plan stay where they are). A swap that would use a fact before eliciting it, or approve a
 * proposal before making it, is not a valid execution and is not generated.
 */
export function alternativeExecutions(ctx: DomainContext, task: Task, golden: Trace): Alternative[] {
  const parsed = parseActions(golden);
  const steps = alignPlan(task, ctx.world, parsed, golden);
  const assigned = steps.flatMap((s, i) => (s === null ? [] : [i]));
  const out: Alternative[] = [];
  for (let k = 0; k + 1 < assigned.length; k++) {
    const i = assigned[k] as number;
    const j = assigned[k + 1] as number;
    const a = task.reference_plan[steps[i] as number] as PlanStep;
    const b = task.reference_plan[steps[j] as number] as PlanStep;
    if (a.workflow === null || unitIndex(a, task.workflows) !== unitIndex(b, task.workflows) || a.sop_step === null || b.sop_step === null || a.sop_step === b.sop_step) continue;
    const w = ctx.sop.workflows.find((x) => x.id === a.workflow);
    if (!w || !w.steps.some((s) => s.id === a.sop_step) || !w.steps.some((s) => s.id === b.sop_step)) continue;
    if (precedes(w, a.sop_step, b.sop_step) || precedes(w, b.sop_step, a.sop_step)) continue;
    if (needs(task, golden, parsed[i] as ParsedAction, parsed[j] as ParsedAction)) continue;
    const actions = parsed.map((p) => p.action);
    actions[i] = (parsed[j] as ParsedAction).action;
    actions[j] = (parsed[i] as ParsedAction).action;
    out.push({ label: `swap ${a.workflow}:${a.sop_step}<->${b.sop_step}`, actions });
  }
  return out;
}
