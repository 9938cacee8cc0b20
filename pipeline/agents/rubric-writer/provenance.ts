import type { CheckProvenance, Provenance, SopWorkflow } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";

/** Provenance of a world formal rule: the SOP rule extracted from the clause it points at (current version). */
export function ruleProvenance(ctx: DomainContext, ruleId: string): CheckProvenance | null {
  const formal = ctx.world.rules.find((r) => r.id === ruleId);
  if (!formal) return null;
  const sopRule =
    ctx.sop.rules.find((r) => r.id === formal.clause.clause && r.document === formal.clause.document && r.status === "current") ??
    ctx.sop.rules.find((r) => r.id === formal.clause.clause && r.document === formal.clause.document);
  if (!sopRule) return null;
  return { source: "rule", rule: ruleId, at: sopRule.provenance };
}

/** Provenance of a procedure step (its clause when it cites one). */
export function stepProvenance(wf: SopWorkflow, stepId: string | null): CheckProvenance {
  const step = wf.steps.find((s) => s.id === stepId);
  const at: Provenance = step?.provenance ?? wf.provenance;
  return { source: "rule", rule: at.clause ?? `${wf.id}/${stepId ?? "procedure"}`, at };
}

/** Provenance of what the customer asked for. */
export function customerProvenance(taskId: string, requirement: string): CheckProvenance {
  return { source: "customer", at: { task: taskId, requirement } };
}
