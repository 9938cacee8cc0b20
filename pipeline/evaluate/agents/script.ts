import type { EpisodeAction } from "../../../validation/episode-actions.js";
import type { AgentRun, AgentSession } from "./types.js";
import { MadeIds } from "./made-ids.js";

/** A proposal id named in a message (an approval asked for in words). */
const PROPOSAL_ID = /\bPR-\d{4,}\b/;

/**
 * Perform the agent's actions of a trace in order through the session: the opening and the
 * customer's own lines and calls are the customer's, not the agent's, and are skipped by the session.
 * A statement that asks to approve a proposal by id is sent as a message the customer answers.
 * With `retryExplicitFaults` N, a call that an explicit fault replaced (nothing ran) is made again, up to N times.
 * With `recorded` (the result each action's call returned in the trace the actions come from), an
 * id the live call returned differently is used in its place afterwards (MadeIds).
 */
export async function performActions(session: AgentSession, actions: readonly EpisodeAction[], opts: { retryExplicitFaults?: number; recorded?: ReadonlyArray<unknown> } = {}): Promise<AgentRun> {
  const ids = new MadeIds();
  for (const [i, a] of actions.entries()) {
    if (session.over) break;
    const asked: EpisodeAction = a.type === "say" && /approv/i.test(a.text) && PROPOSAL_ID.test(a.text) ? { type: "ask", text: a.text } : a;
    const action = followIds(asked, ids);
    let step = await session.act(action);
    // A call an explicit fault replaced did not run: an agent that knows the right call makes it again.
    for (let retry = 0; retry < (opts.retryExplicitFaults ?? 0) && !session.over && step?.outcome?.status === "faulted" && step.outcome.fault?.mode === "explicit"; retry++) {
      step = await session.act(action);
    }
    const recorded = opts.recorded?.[i];
    if (recorded !== undefined && step?.outcome?.status === "executed") ids.learn(recorded, step.outcome.result);
  }
  if (!session.over) await session.call("finish", {});
  return { end: "finished", usage: null };
}

/** An action with the ids the live episode made in place of the recorded ones. */
function followIds(a: EpisodeAction, ids: MadeIds): EpisodeAction {
  switch (a.type) {
    case "call":
    case "customer_call":
      return { ...a, args: ids.apply(a.args) };
    case "ask":
    case "say":
      return { ...a, text: ids.text(a.text) };
    case "approve":
      return { ...a, proposal_id: a.proposal_id === null ? null : ids.text(a.proposal_id) };
    default:
      return a;
  }
}
