import type { AcceptanceCheck } from "../../pipeline/schemas/index.js";
import { argsMatch } from "../checks/lib/events.js";
import { checksOfKind, executedCalls, operation, param } from "./lib.js";
import type { MutationInput } from "./types.js";

/** An approval the golden trace obtained, and the execution it enabled. */
export interface ApprovalUse {
  /** Position of the approve action. */
  approve: number;
  /** Operation that made the proposal. */
  proposer: string;
  kind: string;
  /** Position of the first execution after the approval of an operation requiring that kind, if any. */
  execution: number | null;
  executor: string | null;
  /** The approval_before_execution check guarding the executor (or the kind), if any. */
  target: AcceptanceCheck | null;
}

/** Approvals in the golden trace with what they enabled and the check that guards them. */
export function approvalUses(input: MutationInput): ApprovalUse[] {
  const out: ApprovalUse[] = [];
  input.parsed.forEach((p, a) => {
    if (p.action.type !== "approve" || p.action.proposal_of === null) return;
    const kind = operation(input, p.action.proposal_of)?.proposes?.kind;
    if (!kind) return;
    const executors = input.ctx.world.operations.filter((o) => o.requires_approval?.kind === kind).map((o) => o.name);
    const runs = executors.flatMap((name) => executedCalls(input, name).filter((i) => i > a).map((i) => ({ i, name }))).sort((x, y) => x.i - y.i);
    const first = runs[0];
    const guards = checksOfKind(input, "approval_before_execution");
    // The guard of this very execution when the task has one per object (two payments, two approvals).
    const executed = first ? input.parsed[first.i]?.action : undefined;
    const args = executed?.type === "call" ? executed.args : {};
    const own = guards.find((c) => first && param(c, "operation") === first.name && Object.keys((param(c, "args") ?? {}) as object).length > 0 && argsMatch(args, param(c, "args") as Record<string, unknown>));
    const target = own ?? guards.find((c) => (first && param(c, "operation") === first.name) || param(c, "kind") === kind) ?? guards.find((c) => executors.includes(String(param(c, "operation")))) ?? null;
    out.push({ approve: a, proposer: p.action.proposal_of, kind, execution: first?.i ?? null, executor: first?.name ?? null, target });
  });
  return out;
}
