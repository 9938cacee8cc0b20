import type { MutationOperator } from "./types.js";
import { actionsOf, moveBefore, na } from "./lib.js";
import { approvalUses } from "./approvals.js";

export const executeBeforeApproval: MutationOperator = {
  name: "execute_before_approval",
  description: "The agent executes the operation that needs approval before the customer approved it (and not again afterwards).",
  targets: ["approval_before_execution"],
  generate(input) {
    const uses = approvalUses(input).filter((u) => u.execution !== null);
    if (uses.length === 0) return [na(this.name, "the golden trace executes nothing that an approval enabled")];
    return uses.map((u) => {
      const moved = moveBefore(actionsOf(input), u.execution as number, u.approve);
      return {
        operator: this.name,
        target_check: u.target?.id ?? null,
        description: `moved ${u.executor} (golden action ${u.execution}) before the approval of the ${u.kind} proposal`,
        actions: moved.list,
        mutated: [moved.at],
        refusalIsEquivalent: false,
      };
    });
  },
};
