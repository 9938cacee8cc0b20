import type { PlanStep, Task, WorldModel } from "../pipeline/schemas/index.js";
import type { EpisodeAction } from "./episode-actions.js";

/** The sentence an `ask` step says: it names the topic, so the scripted customer discloses the fact. */
export function askText(topic: string): string {
  return `Could you please tell me the ${topic}?`;
}

function topicOf(task: Task, step: PlanStep): string {
  if (typeof step.args.topic === "string" && step.args.topic !== "") return step.args.topic;
  const fact = task.scenario.private_facts.find((f) => f.id === step.args.fact);
  return fact?.disclose_when[0] ?? String(step.args.fact ?? "detail");
}

/** The proposing operation an approval step answers: its `proposal_of`, else the closest earlier proposal step. */
function proposalOf(world: WorldModel, plan: readonly PlanStep[], at: number): string | null {
  const step = plan[at] as PlanStep;
  if (typeof step.args.proposal_of === "string") return step.args.proposal_of;
  const proposers = new Set(world.operations.filter((o) => o.proposes).map((o) => o.name));
  for (let i = at - 1; i >= 0; i--) if (proposers.has((plan[i] as PlanStep).operation)) return (plan[i] as PlanStep).operation;
  return null;
}

/**
 * The actions of a task's reference plan, opening first: operation steps become calls, `ask` steps
 * a question naming the fact's topic, `approve` steps (or customer steps of an approving operation)
 * an approval request, `wait` steps a wait. A plan-following solver in one function.
 */
export function actionsFromPlan(task: Task, world: WorldModel): EpisodeAction[] {
  const approvers = new Set(world.operations.filter((o) => o.approves !== undefined).map((o) => o.name));
  const out: EpisodeAction[] = [{ type: "open" }];
  task.reference_plan.forEach((step, i) => {
    if (step.operation === "ask") out.push({ type: "ask", text: askText(topicOf(task, step)) });
    else if (step.operation === "wait") out.push({ type: "wait", minutes: Number(step.args.minutes ?? 0) });
    else if (step.operation === "approve" || (step.actor === "customer" && approvers.has(step.operation))) {
      out.push({ type: "approve", proposal_of: proposalOf(world, task.reference_plan, i), proposal_id: null });
    } else if (step.actor === "customer") out.push({ type: "customer_call", name: step.operation, args: { ...step.args } });
    else out.push({ type: "call", name: step.operation, args: { ...step.args } });
  });
  return out;
}
