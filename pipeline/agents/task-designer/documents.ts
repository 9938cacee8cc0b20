import type { Task } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";
import type { PlanUnit } from "../plan/derive-plan.js";

/**
 * Documents a task's agent should follow (the current versions its procedures and their rules come
 * from) and the distractors beside them (every version not in force or not in scope), as `id@version`.
 */
export function documentsFor(ctx: DomainContext, units: readonly PlanUnit[]): Task["documents"] {
  const relevantIds = new Set<string>();
  for (const u of units) {
    relevantIds.add(u.workflow.document);
    for (const r of u.workflow.rules) {
      const rule = ctx.sop.rules.find((x) => x.id === r && x.status === "current");
      if (rule) relevantIds.add(rule.document);
    }
  }
  const relevant = ctx.sop.documents.filter((d) => relevantIds.has(d.id) && d.status === "current").map((d) => `${d.id}@${d.version}`).sort();
  const distractors = ctx.sop.documents.filter((d) => d.status !== "current").map((d) => `${d.id}@${d.version}`).sort();
  return { relevant, distractors };
}
