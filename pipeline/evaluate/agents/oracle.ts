import { parseActions } from "../../../validation/episode-actions.js";
import type { Trace } from "../../schemas/index.js";
import type { AgentFactory } from "./types.js";
import { performActions } from "./script.js";

/** Retries of a call that an explicit fault replaced: more than the default fault duration (2 calls). */
const ORACLE_RETRIES = 4;

/**
 * `oracle`: performs the agent actions of the task's golden trace (the upper bound), making a call
 * again when an explicit fault replaced it, and using the ids its own calls returned where the
 * golden trace's calls returned others (a fault that took a call's turn shifts the world's
 * counters). The only agent that reads the golden trace.
 */
export const oracleAgent: AgentFactory = {
  spec: "oracle",
  asyncCustomer: true,
  tasks: null,
  create: ({ golden }) => {
    const { actions, recorded } = goldenActions(golden);
    return { spec: "oracle", asyncCustomer: true, run: (session) => performActions(session, actions, { retryExplicitFaults: ORACLE_RETRIES, recorded }) };
  },
};

/** The golden trace's actions, each with the result its executed call returned (undefined for the others). */
function goldenActions(golden: Trace) {
  const parsed = parseActions(golden);
  const byIndex = new Map(golden.events.map((e) => [e.index, e]));
  const recorded = parsed.map((p) => {
    const call = p.events.map((i) => byIndex.get(i)).find((e) => e !== undefined && e.actor === "agent" && e.status === "executed" && e.result !== undefined);
    return call?.result;
  });
  return { actions: parsed.map((p) => p.action), recorded };
}
