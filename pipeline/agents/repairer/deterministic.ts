import type { Task, Trace } from "../../schemas/index.js";
import { canonicalJson } from "../../core/canonical-json.js";
import { defaultRepairer } from "../../../validation/repairs/default-repairer.js";
import type { Diagnosis as GateDiagnosis } from "../../../validation/gates/types.js";
import type { Diagnosis, DomainContext, RepairResult, Repairer } from "../types.js";
import { addMissingCheck } from "./add-missing-check.js";

/**
 * The repairer's embedded strategy: first the validation repairs by diagnosis code (remove a weak
 * check, require an execution a mutant showed missing, re-derive a refused step's arguments, drop an
 * unused fact); then, for a surviving mutant (`mutant_survived`), repair before drop: add the check
 * of the kinds its operator targets that the rubric derives from the documents and the task lacks,
 * or strengthen the targeted check (addMissingCheck); the task is dropped only when that finds
 * nothing. Then, for a process or protection check the golden trace fails, remove the check —
 * the golden trace follows the procedure on the live state, so the check asserted more than the
 * rules require. Anything else has no deterministic fix, and the task is dropped with its diagnosis.
 */
export class DeterministicRepairer implements Repairer {
  async repair(ctx: DomainContext, task: Task, diagnosis: Diagnosis, attempt: number, golden: Trace | null): Promise<RepairResult | null> {
    const fixed = await defaultRepairer(task, diagnosis as GateDiagnosis, attempt, { ctx, golden });
    if (fixed) {
      const next = "task" in fixed ? fixed.task : fixed;
      const action = "task" in fixed && "action" in fixed ? String(fixed.action) : "repaired by the validation repairs";
      const planChanged = canonicalJson(next.reference_plan) !== canonicalJson(task.reference_plan);
      return { task: next, action, resume: planChanged ? "designed" : "checked" };
    }
    if (diagnosis.code === "mutant_survived") {
      const added = diagnosis.operator ? await addMissingCheck(ctx, task, diagnosis.operator, diagnosis.check) : null;
      return added ? { ...added, resume: "checked" } : null;
    }
    if (!diagnosis.check) return null;
    for (const group of ["process", "protection"] as const) {
      const list = task.checks[group];
      if (!list.some((c) => c.id === diagnosis.check)) continue;
      return {
        task: { ...task, checks: { ...task.checks, [group]: list.filter((c) => c.id !== diagnosis.check) } },
        action: `removed ${group} check ${diagnosis.check}: the golden trace follows the procedure and fails it, so the check asserted more than the rules require`,
        resume: "checked",
      };
    }
    return null;
  }
}
