import type { Operation, SopWorkflow } from "../../schemas/index.js";
import type { DomainContext } from "../../world/domain-context.js";
import { judgeDocumentVersions, profileOf } from "../../sop/select-rules.js";
import type { PlanAction } from "./actions.js";
import type { WorldIndex } from "./world-index.js";

/** The formal rules that govern an operation: its own and its preconditions'. */
function governingRules(op: Operation): string[] {
  return [...new Set([...op.rules, ...op.preconditions.flatMap((p) => (p.rule ? [p.rule] : []))])];
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** The version of document `id` in force for the domain's date and the customer's scope, or null when not exactly one is. */
function inForce(ctx: DomainContext, id: string, customer: Record<string, unknown> | undefined): string | null {
  const versions = ctx.sop.documents.filter((d) => d.id === id);
  const profile = profileOf({ segment: str(customer?.segment), region: str(customer?.region), product: str(customer?.product) });
  const current = judgeDocumentVersions(versions, { date: ctx.card.as_of, customer: profile }).filter((v) => v.status === "current");
  return current.length === 1 ? (current[0]?.version ?? null) : null;
}

/** What the next block of a plan does: its workflow and step, and the operation it calls (if any). */
export interface NextBlock {
  workflow: SopWorkflow;
  step: string;
  operation: Operation | undefined;
}

/**
 * The document reads a plan makes before its next block, the way a careful officer consults the
 * documents: before a workflow's first action, the procedure it follows; before the first call of
 * an operation a formal rule governs, the in-force version (for the domain's date and this
 * customer's scope) of the document stating the rule. Each document is read once per plan, through
 * the agent's `read_document` tool, ahead of the block's questions and waits. Reads are part of the
 * plan the search executes (they take event numbers, which some worlds use in keys). A document with
 * no single version in force is not read: there is nothing to follow.
 */
export function documentReads(ctx: DomainContext, index: WorldIndex, customerKey: string, prior: readonly PlanAction[], next: NextBlock): PlanAction[] {
  const customer = index.customerTable.rows.find((r) => String(r[index.customerTable.primary_key]) === customerKey) as Record<string, unknown> | undefined;
  const read = new Set(prior.flatMap((a) => (a.type === "call" && a.operation === "read_document" ? [String(a.args.id)] : [])));
  const docs: Array<{ id: string; why: string }> = [];
  if (!prior.some((a) => a.workflow === next.workflow.id)) {
    docs.push({ id: next.workflow.document, why: `the procedure "${next.workflow.title}" is followed from here: read it in the version in force` });
  }
  if (next.operation && next.operation.side === "agent") {
    for (const id of governingRules(next.operation)) {
      const rule = ctx.world.rules.find((r) => r.id === id);
      if (rule) docs.push({ id: rule.clause.document, why: `${rule.clause.clause} (${rule.id}) governs ${next.operation.name}: read the version in force before the first call` });
    }
  }
  const out: PlanAction[] = [];
  for (const d of docs) {
    if (read.has(d.id)) continue;
    const version = inForce(ctx, d.id, customer);
    if (version === null) continue;
    read.add(d.id);
    out.push({ type: "call", operation: "read_document", args: { id: d.id, version }, workflow: next.workflow.id, step: next.step, why: d.why });
  }
  return out;
}
