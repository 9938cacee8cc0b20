import type { PlanStep } from "../../schemas/index.js";

/**
 * One action of a plan, as the solver performs it through the agent's tools: a tool call, a question
 * that elicits a customer fact, a request for the customer's approval of a proposal, or a wait.
 */
/** `unit`: the piece of work (index into the task's workflows) when it is not the first piece of its workflow. */
type Where = { workflow: string | null; step: string | null; why: string; unit?: number };
export type PlanAction =
  | ({ type: "call"; operation: string; args: Record<string, unknown> } & Where)
  | ({ type: "ask"; fact: string; topic: string } & Where)
  | ({ type: "approve"; proposal_of: string } & Where)
  | ({ type: "wait"; minutes: number } & Where);

/** A task's reference plan from plan actions. */
export function toReferencePlan(actions: readonly PlanAction[]): PlanStep[] {
  return actions.map((a, i) => {
    const base = { step: i + 1, workflow: a.workflow, sop_step: a.step, ...(a.unit === undefined ? {} : { unit: a.unit }), why: a.why };
    switch (a.type) {
      case "call":
        return { ...base, actor: "agent" as const, operation: a.operation, args: a.args };
      case "ask":
        return { ...base, actor: "agent" as const, operation: "ask", args: { fact: a.fact, topic: a.topic } };
      case "approve":
        return { ...base, actor: "customer" as const, operation: "approve", args: { proposal_of: a.proposal_of } };
      case "wait":
        return { ...base, actor: "agent" as const, operation: "wait", args: { minutes: a.minutes } };
    }
  });
}

/** Plan actions from a task's reference plan (the inverse of toReferencePlan). */
export function fromReferencePlan(plan: readonly PlanStep[]): PlanAction[] {
  return plan.map((p): PlanAction => {
    const base = { workflow: p.workflow, step: p.sop_step, ...(p.unit === undefined ? {} : { unit: p.unit }), why: p.why };
    if (p.operation === "ask") return { ...base, type: "ask", fact: String(p.args.fact), topic: String(p.args.topic) };
    if (p.operation === "approve") return { ...base, type: "approve", proposal_of: String(p.args.proposal_of) };
    if (p.operation === "wait") return { ...base, type: "wait", minutes: Number(p.args.minutes) };
    return { ...base, type: "call", operation: p.operation, args: p.args };
  });
}

/** The sentence an agent uses to ask the customer about `topic`. */
export function askText(topic: string): string {
  return `To continue I need one detail from you: could you give me the ${topic}?`;
}
