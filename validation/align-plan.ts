import type { PlanStep, Task, Trace, WorldModel } from "../pipeline/schemas/index.js";
import type { ParsedAction } from "./episode-actions.js";

function matches(step: PlanStep, p: ParsedAction, trace: Trace, approvers: ReadonlySet<string>): boolean {
  const a = p.action;
  if (step.operation === "ask") {
    if (a.type !== "ask") return false;
    const fact = step.args.fact;
    const disclosed = p.events.some((i) => trace.events[i - 1]?.facts.includes(String(fact)));
    const topic = typeof step.args.topic === "string" ? step.args.topic.toLowerCase() : null;
    return disclosed || (topic !== null && a.text.toLowerCase().includes(topic));
  }
  if (step.operation === "approve" || (step.actor === "customer" && approvers.has(step.operation))) return a.type === "approve";
  if (step.operation === "wait") return a.type === "wait";
  if (step.actor === "customer") return a.type === "customer_call" && a.name === step.operation;
  return a.type === "call" && a.name === step.operation;
}

/**
 * Which reference-plan step each action of a trace realises (index into `reference_plan`), or null
 * for actions outside the plan (extra reads, the opening). Steps are matched in plan order, each to
 * the next unmatched action that fits it.
 */
export function alignPlan(task: Task, world: WorldModel, parsed: readonly ParsedAction[], trace: Trace): Array<number | null> {
  const approvers = new Set(world.operations.filter((o) => o.approves !== undefined).map((o) => o.name));
  const out: Array<number | null> = parsed.map(() => null);
  let from = 0;
  task.reference_plan.forEach((step, s) => {
    for (let i = from; i < parsed.length; i++) {
      if (out[i] === null && matches(step, parsed[i] as ParsedAction, trace, approvers)) {
        out[i] = s;
        from = i + 1;
        return;
      }
    }
  });
  return out;
}
