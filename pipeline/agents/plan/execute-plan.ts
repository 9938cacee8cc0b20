import type { Task, Trace } from "../../schemas/index.js";
import type { DomainContext } from "../../world/domain-context.js";
import type { ToolOutcome } from "../../world/types.js";
import { EpisodeDriver, type EpisodeAction } from "../../../validation/episode-actions.js";
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
  /** The episode's driver, open until `close()`, so callers can read the final state. */
  episode: Pick<EpisodeDriver, "read">;
  close(): void;
}

/** A plan action as the episode driver performs it. */
function episodeAction(a: PlanAction): EpisodeAction {
  switch (a.type) {
    case "call":
      return { type: "call", name: a.operation, args: a.args };
    case "ask":
      return { type: "ask", text: askText(a.topic) };
    case "approve":
      return { type: "approve", proposal_of: a.proposal_of, proposal_id: null };
    case "wait":
      return { type: "wait", minutes: a.minutes };
  }
}

/**
 * Perform a plan through the same tools an agent uses, with the scripted customer, on the task's
 * initial state (validation's EpisodeDriver: the one way episodes are driven). The
 * episode stays open so callers can read the final state.
 */
export function executePlan(ctx: DomainContext, task: Task, actions: readonly PlanAction[], meta: { role: Trace["role"]; label?: string }): PlanRun {
  // `reuse`: the designer executes thousands of candidate plans on the same state; a pooled
  // connection rolled back to s0 keeps its prepared statements (connection.ts). Same events either way.
  const driver = EpisodeDriver.open(ctx, task, { role: meta.role, label: meta.label ?? "", seed: ctx.card.generation.seed, isolation: "reuse" });
  driver.do({ type: "open" });
  const outcomes = actions.map((action): ActionOutcome => {
    const step = driver.do(episodeAction(action));
    const facts = action.type === "ask" ? step.events.filter((e) => e.kind === "customer_message").flatMap((e) => e.facts) : [];
    return { action, outcome: step.outcome, facts };
  });
  return { trace: driver.finish(), outcomes, episode: driver, close: () => driver.close() };
}
