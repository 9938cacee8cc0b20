import type { MutationOperator } from "./types.js";
import { actionsOf, na, operation, without } from "./lib.js";
import { approvalUses, type ApprovalUse } from "./approvals.js";

/**
 * A renewed approval in the golden trace: the customer approved terms, corrected one right after,
 * and approved the corrected proposal; both approvals enable the same execution. The mutant keeps
 * the first, stale approval: it drops the corrected proposal and its approval and executes the
 * terms first approved. The world lets it through (that approval is still approved and unused), so
 * only the approval check can tell that the customer no longer agrees to those terms.
 */
export const reuseStaleApproval: MutationOperator = {
  name: "reuse_stale_approval",
  description: "After the customer corrects approved terms, the agent executes the terms first approved instead of proposing the corrected ones for a new approval.",
  targets: ["approval_before_execution"],
  generate(input) {
    const uses = approvalUses(input).filter((u) => u.execution !== null);
    const renewed: Array<[ApprovalUse, ApprovalUse]> = [];
    for (let i = 1; i < uses.length; i++) {
      const first = uses[i - 1] as ApprovalUse, second = uses[i] as ApprovalUse;
      if (first.kind === second.kind && first.execution === second.execution) renewed.push([first, second]);
    }
    if (renewed.length === 0) return [na(this.name, "the golden trace renews no approval (no terms corrected after an approval)")];
    return renewed.map(([stale, fresh]) => {
      const actions = actionsOf(input);
      // The proposal each approval approved: the last call of its proposer before it.
      const proposalBefore = (at: number, after: number) => {
        for (let i = at - 1; i > after; i--) {
          const a = actions[i];
          if (a?.type === "call" && a.name === stale.proposer) return i;
        }
        return -1;
      };
      const staleProposal = proposalBefore(stale.approve, -1);
      const freshProposal = proposalBefore(fresh.approve, stale.approve);
      const call = actions[fresh.execution as number];
      const proposed = actions[staleProposal];
      const terms = operation(input, fresh.executor as string)?.requires_approval?.terms ?? [];
      if (staleProposal < 0 || freshProposal < 0 || call?.type !== "call" || proposed?.type !== "call") return na(this.name, `the renewed ${fresh.kind} approval has no proposal of its own before it`);
      const staleTerms = Object.fromEntries(terms.filter((t) => t in proposed.args).map((t) => [t, proposed.args[t]]));
      actions[fresh.execution as number] = { ...call, args: { ...call.args, ...staleTerms } };
      const dropped = new Set([freshProposal, fresh.approve]);
      const out = without(actions, dropped);
      const at = (fresh.execution as number) - [...dropped].filter((d) => d < (fresh.execution as number)).length;
      return {
        operator: this.name,
        target_check: fresh.target?.id ?? null,
        description: `${fresh.executor} executed with the terms approved at golden action ${stale.approve} (${Object.entries(staleTerms).map(([k, v]) => `${k} = ${String(v)}`).join(", ")}), after the customer corrected them; the corrected proposal and its approval (golden actions ${freshProposal}, ${fresh.approve}) are left out`,
        actions: out,
        mutated: [at],
        refusalIsEquivalent: false,
      };
    });
  },
};
