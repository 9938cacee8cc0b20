import { actionsOf } from "../../../validation/episode-actions.js";
import type { AgentFactory } from "./types.js";
import { performActions } from "./script.js";

/** `oracle`: performs the agent actions of the task's golden trace (the upper bound). The only agent that reads the golden trace. */
export const oracleAgent: AgentFactory = {
  spec: "oracle",
  asyncCustomer: true,
  tasks: null,
  create: ({ golden }) => ({ spec: "oracle", asyncCustomer: true, run: (session) => performActions(session, actionsOf(golden)) }),
};
