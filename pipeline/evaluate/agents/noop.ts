import type { Agent, AgentFactory } from "./types.js";

const noop: Agent = {
  spec: "noop",
  asyncCustomer: true,
  run: async (session) => {
    session.turn();
    await session.call("finish", { summary: "nothing done" });
    return { end: "finished", usage: null };
  },
};

/** `noop`: finishes at once, doing nothing (the lower bound); it needs no world, so it runs simulated-only tasks too. */
export const noopAgent: AgentFactory = { spec: "noop", asyncCustomer: true, tasks: null, create: () => noop, createWorldless: () => noop };
