import type { Task } from "../../schemas/index.js";
import type { Diagnosis, DomainContext, RepairResult, Repairer } from "../types.js";

/**
 * The repairer's embedded strategy. The golden trace follows the procedure on the live state, so
 * when it fails a process or protection check, the check is what is wrong: it is removed and the
 * task is verified again. A failing goal, a replay mismatch or an unsolvable plan has no
 * deterministic fix here, and the task is dropped with the diagnosis as its reason.
 */
export class DeterministicRepairer implements Repairer {
  async repair(_ctx: DomainContext, task: Task, diagnosis: Diagnosis): Promise<RepairResult | null> {
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
