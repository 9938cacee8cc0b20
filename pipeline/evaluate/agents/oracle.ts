import { actionsOf } from "../../../validation/episode-actions.js";
import type { AgentFactory } from "./types.js";
import { performActions } from "./script.js";

/** Retries of a call that an explicit fault replaced: more than the default fault duration (2 calls). */
const ORACLE_RETRIES = 4;

/**
 * `oracle`: performs the agent actions of the task's golden trace (the upper bound), making a call
 * again when an explicit fault replaced it. The only agent that reads the golden trace.
 */
export const oracleAgent: AgentFactory = {
  spec: "oracle",
  asyncCustomer: true,
  tasks: null,
  create: ({ golden }) => ({ spec: "oracle", asyncCustomer: true, run: (session) => performActions(session, actionsOf(golden), { retryExplicitFaults: ORACLE_RETRIES }) }),
};
