import type { Task, Trace } from "../../schemas/index.js";
import type { DomainContext } from "../../world/domain-context.js";
import { applyOverlay } from "../../world/build-state.js";
import { Episode } from "../../world/episode.js";
import { ScriptedCustomer } from "../../world/customer-sim.js";
import type { ToolOutcome } from "../../world/types.js";
import { askText, type PlanAction } from "./actions.js";

export interface ActionOutcome {
  action: PlanAction;
  /** Outcome of the call or customer action; null for an ask, a declined approval or a missing proposal. */
  outcome: ToolOutcome | null;
  /** Fact ids the customer disclosed in answer to an ask. */
  facts: string[];
}

export interface PlanRun {
  trace: Trace;
  outcomes: ActionOutcome[];
  /** Read-only view of the final state, open until `close()`. */
  episode: Episode;
  close(): void;
}

/**
 * Perform a plan through the same tools an agent uses, with the scripted customer, on a fresh copy
 * of the task's initial state. The episode stays open so callers can read the final state.
 */
export function executePlan(ctx: DomainContext, task: Task, actions: readonly PlanAction[], meta: { role: Trace["role"]; label?: string }): PlanRun {
  const initial = task.initial_state.length > 0 ? applyOverlay(ctx.base, ctx.world, task.initial_state, `task ${task.id}`) : ctx.base;
  const episode = Episode.open(initial, ctx.world, { task, documents: ctx.documents, role: meta.role, label: meta.label ?? "", seed: ctx.card.generation.seed });
  const customer = new ScriptedCustomer(task, episode);
  customer.open();
  const outcomes: ActionOutcome[] = [];
  const lastProposal = new Map<string, string>();
  for (const action of actions) {
    switch (action.type) {
      case "call": {
        const outcome = episode.invoke({ name: action.operation, args: action.args, actor: "agent" });
        if (outcome.status === "executed" && outcome.proposal_id) lastProposal.set(action.operation, outcome.proposal_id);
        outcomes.push({ action, outcome, facts: [] });
        break;
      }
      case "ask": {
        const { facts } = customer.answer(askText(action.topic));
        outcomes.push({ action, outcome: null, facts });
        break;
      }
      case "approve": {
        const id = lastProposal.get(action.proposal_of);
        const outcome = id ? customer.approve(id).outcome : null;
        outcomes.push({ action, outcome, facts: [] });
        break;
      }
      case "wait":
        outcomes.push({ action, outcome: episode.wait(action.minutes), facts: [] });
        break;
    }
  }
  return { trace: episode.finish(), outcomes, episode, close: () => episode.close() };
}
