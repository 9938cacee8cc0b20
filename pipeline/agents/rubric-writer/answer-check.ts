import type { AcceptanceCheck, Provenance, Task } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";

/** Parameters of check kinds that name a world operation. */
const OPERATION_PARAMS = ["operation", "before", "after"] as const;

function sameLines(a: Provenance, b: Provenance): boolean {
  return a.document === b.document && a.version === b.version && a.line_start === b.line_start && a.line_end === b.line_end;
}

/** Every provenance the SOP holds: its rules', workflows', steps' and decisions'. */
function sopProvenances(ctx: DomainContext): Provenance[] {
  return [...ctx.sop.rules.map((r) => r.provenance), ...ctx.sop.workflows.flatMap((w) => [w.provenance, ...w.steps.map((s) => s.provenance), ...w.decisions.map((d) => d.provenance)])];
}

/**
 * What is wrong with a model's checks beyond their kinds and parameter shapes: operations the world
 * does not have, rule ids neither the world nor the SOP knows, line ranges that are not an SOP
 * element's provenance, customer requirements of another task. One message per problem, with its path.
 */
export function rubricProblems(ctx: DomainContext, task: Task, checks: readonly AcceptanceCheck[]): Array<{ path: (string | number)[]; message: string }> {
  const out: Array<{ path: (string | number)[]; message: string }> = [];
  const operations = new Set(ctx.world.operations.map((o) => o.name));
  const ruleIds = new Set<string>([
    ...ctx.world.rules.map((r) => r.id),
    ...ctx.sop.rules.map((r) => r.id),
    ...ctx.sop.workflows.flatMap((w) => [`${w.id}/procedure`, ...w.steps.map((s) => `${w.id}/${s.id}`), ...w.steps.flatMap((s) => (s.provenance.clause ? [s.provenance.clause] : [])), ...w.decisions.flatMap((d) => [`${w.id}/${d.id}`, ...(d.provenance.clause ? [d.provenance.clause] : [])])]),
  ]);
  const provenances = sopProvenances(ctx);
  checks.forEach((c, i) => {
    const params = (c.params ?? {}) as Record<string, unknown>;
    for (const p of OPERATION_PARAMS) {
      const v = params[p];
      if (typeof v === "string" && !operations.has(v)) out.push({ path: ["checks", i, "params", p], message: `operation "${v}" does not exist in the world; choose one of ${[...operations].sort().join(", ")}` });
    }
    const prov = c.provenance;
    if (prov.source === "rule") {
      if (!ruleIds.has(prov.rule)) out.push({ path: ["checks", i, "provenance", "rule"], message: `rule "${prov.rule}" is neither a formal rule of the world nor a rule, step or decision of the SOP` });
      if (!provenances.some((p) => sameLines(p, prov.at))) out.push({ path: ["checks", i, "provenance", "at"], message: `${prov.at.document} v${prov.at.version} lines ${prov.at.line_start}-${prov.at.line_end} is not the provenance of any rule, step or decision of the SOP` });
    } else if (prov.at.task !== task.id) {
      out.push({ path: ["checks", i, "provenance", "at", "task"], message: `a customer requirement of task "${prov.at.task}", not of this task (${task.id})` });
    }
  });
  return out;
}
