import type { EpisodeAction } from "../../../validation/episode-actions.js";
import type { AgentRun, AgentSession } from "./types.js";

/** A proposal id named in a message (an approval asked for in words). */
const PROPOSAL_ID = /\bPR-\d{4,}\b/;

/**
 * Perform the agent's actions of a trace in order through the session: the opening and the
 * customer's own lines and calls are the customer's, not the agent's, and are skipped by the session.
 * A statement that asks to approve a proposal by id is sent as a message the customer answers.
 * With `retryExplicitFaults` N, a call that an explicit fault replaced (nothing ran) is made again, up to N times.
 */
export async function performActions(session: AgentSession, actions: readonly EpisodeAction[], opts: { retryExplicitFaults?: number } = {}): Promise<AgentRun> {
  for (const a of actions) {
    if (session.over) break;
    const action: EpisodeAction = a.type === "say" && /approv/i.test(a.text) && PROPOSAL_ID.test(a.text) ? { type: "ask", text: a.text } : a;
    let step = await session.act(action);
    // A call an explicit fault replaced did not run: an agent that knows the right call makes it again.
    for (let retry = 0; retry < (opts.retryExplicitFaults ?? 0) && !session.over && step?.outcome?.status === "faulted" && step.outcome.fault?.mode === "explicit"; retry++) {
      step = await session.act(action);
    }
  }
  if (!session.over) await session.call("finish", {});
  return { end: "finished", usage: null };
}
