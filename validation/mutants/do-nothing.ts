import type { MutationOperator } from "./types.js";

export const doNothing: MutationOperator = {
  name: "do_nothing",
  description: "The agent does nothing after the customer's opening message; one mutant per goal check, so a goal check that nothing can fail shows up as a survivor.",
  targets: ["goal"],
  generate(input) {
    return input.task.checks.goal.map((c) => ({
      operator: "do_nothing",
      target_check: c.id,
      description: "opening message only",
      actions: [{ type: "open" as const }],
      mutated: [],
      refusalIsEquivalent: false,
    }));
  },
};
