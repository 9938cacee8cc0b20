import type { AgentFactory } from "./types.js";

/** `noop`: finishes at once, doing nothing (the lower bound). */
export const noopAgent: AgentFactory = {
  spec: "noop",
  asyncCustomer: true,
  tasks: null,
  create: () => ({
    spec: "noop",
    asyncCustomer: true,
    run: async (session) => {
      session.turn();
      await session.call("finish", { summary: "nothing done" });
      return { end: "finished", usage: null };
    },
  }),
};
