import type { Operation } from "../../schemas/index.js";
import type { DomainContext } from "../../world/domain-context.js";
import { judgeDocumentVersions, profileOf } from "../../sop/select-rules.js";
import type { PlanAction } from "./actions.js";
import type { PlanUnit } from "./derive-plan.js";
import type { WorldIndex } from "./world-index.js";

/** The formal rules that govern an operation: its own, its preconditions' and its approval's. */
function governingRules(op: Operation): string[] {
  return [...new Set([...op.rules, ...op.preconditions.flatMap((p) => (p.rule ? [p.rule] : []))])];
}

/** The version of document `id` in force for the task's date and customer, or null. */
function inForce(ctx: DomainContext, id: string, customer: Record<string, unknown> | undefined): string | null {
  const versions = ctx.sop.documents.filter((d) => d.id === id);
  const verdicts = judgeDocumentVersions(versions, { date: ctx.card.as_of, customer: profileOf({ segment: str(customer?.segment), region: str(customer?.region), product: str(customer?.product) }) });
  const current = verdicts.filter((v) => v.status === "current");
  return current.length === 1 ? (current[0]?.version ?? null) : null;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/**
 * A plan that consults the documents the way a careful officer does: before a workflow's first
 * action, the procedure it follows; before the first call of an operation a formal rule governs,
 * the in-force version (for the task's date and this customer's scope) of the document stating the
 * rule. Each document is read once, through the agent's `read_document` tool, just before the block
 * of questions and waits that leads to the call. Reads change no state, so the plan's outcome stays
 * what the search proved; a document with no single version in force is not read (nothing to follow).
 */
export function withDocumentReads(ctx: DomainContext, index: WorldIndex, units: readonly PlanUnit[], customerKey: string, actions: readonly PlanAction[]): PlanAction[] {
  const customer = index.customerTable.rows.find((r) => String(r[index.customerTable.primary_key]) === customerKey) as Record<string, unknown> | undefined;
  const read = new Set<string>();
  const started = new Set<string>();
  const out: PlanAction[] = [];
  const rules = new Map(ctx.world.rules.map((r) => [r.id, r]));
  for (let i = 0; i < actions.length; i++) {
    const a = actions[i] as PlanAction;
    // A block: the questions and waits for one call, then the call; reads go before the block.
    if (a.type === "ask" || a.type === "wait") {
      let j = i;
      while (j < actions.length && (actions[j]?.type === "ask" || actions[j]?.type === "wait") && actions[j]?.step === a.step) j++;
      const call = actions[j];
      if (call && call.step === a.step) out.push(...readsBefore(call));
    } else out.push(...readsBefore(a));
    out.push(a);
  }
  return out;

  function readsBefore(a: PlanAction): PlanAction[] {
    const docs: Array<{ id: string; why: string }> = [];
    if (a.workflow && !started.has(a.workflow)) {
      started.add(a.workflow);
      const wf = units.find((u) => u.workflow.id === a.workflow)?.workflow;
      if (wf) docs.push({ id: wf.document, why: `the procedure "${wf.title}" is followed from here: read it in the version in force` });
    }
    const op = a.type === "call" ? index.ops.get(a.operation) : undefined;
    if (op && op.side === "agent") {
      for (const id of governingRules(op)) {
        const rule = rules.get(id);
        if (rule) docs.push({ id: rule.clause.document, why: `${rule.clause.clause} (${rule.id}) governs ${op.name}: read the version in force before the first call` });
      }
    }
    const reads: PlanAction[] = [];
    for (const d of docs) {
      if (read.has(d.id)) continue;
      const version = inForce(ctx, d.id, customer);
      if (version === null) continue;
      read.add(d.id);
      reads.push({ type: "call", operation: "read_document", args: { id: d.id, version }, workflow: a.workflow, step: a.step, why: d.why });
    }
    return reads;
  }
}
