import type { MutationOperator } from "./types.js";
import { actionsOf, na, without } from "./lib.js";
import { approvalUses } from "./approvals.js";

export const dropApproval: MutationOperator = {
  name: "drop_approval",
  description: "The agent never asks the customer to approve the proposal, and carries on as if it had.",
  targets: ["approval_before_execution"],
  generate(input) {
    const all = approvalUses(input);
    if (all.length === 0) return [na(this.name, "the golden trace obtains no approval")];
    // An approval renewed later (the customer corrected the terms and approved the new proposal)
    // enables nothing the renewal does not: without it the trace is still valid, not a violation.
    const uses = all.filter((u) => !all.some((v) => v.approve > u.approve && v.kind === u.kind && v.execution !== null && v.execution === u.execution));
    if (uses.length === 0) return [na(this.name, "every approval in the golden trace is renewed by a later one for the same execution")];
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
