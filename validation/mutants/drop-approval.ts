import type { MutationOperator } from "./types.js";
import { actionsOf, na, without } from "./lib.js";
import { approvalUses } from "./approvals.js";

export const dropApproval: MutationOperator = {
  name: "drop_approval",
  description: "The agent never asks the customer to approve the proposal, and carries on as if it had.",
  targets: ["approval_before_execution"],
  generate(input) {
    const uses = approvalUses(input);
    if (uses.length === 0) return [na(this.name, "the golden trace obtains no approval")];
    return uses.map((u) => ({
      operator: this.name,
      target_check: u.target?.id ?? null,
      description: `dropped the approval of the ${u.kind} proposal made by ${u.proposer} (golden action ${u.approve})`,
      actions: without(actionsOf(input), new Set([u.approve])),
      mutated: [],
      refusalIsEquivalent: false,
    }));
  },
};
