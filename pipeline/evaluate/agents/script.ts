import type { EpisodeAction } from "../../../validation/episode-actions.js";
import type { AgentRun, AgentSession } from "./types.js";

/** A proposal id named in a message (an approval asked for in words). */
const PROPOSAL_ID = /\bPR-\d{4,}\b/;

/**
 * Perform the agent's actions of a trace in order through the session: the opening and the
 * customer's own lines and calls are the customer's, not the agent's, and are skipped by the session.
 * A statement that asks to approve a proposal by id is sent as a message the customer answers.
 */
export async function performActions(session: AgentSession, actions: readonly EpisodeAction[]): Promise<AgentRun> {
  for (const a of actions) {
    if (session.over) break;
    const action: EpisodeAction = a.type === "say" && /approv/i.test(a.text) && PROPOSAL_ID.test(a.text) ? { type: "ask", text: a.text } : a;
    await session.act(action);
  }
  if (!session.over) await session.call("finish", {});
  return { end: "finished", usage: null };
}
