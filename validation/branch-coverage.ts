import type { Sop, Task } from "../pipeline/schemas/index.js";
import { parseCondition } from "../pipeline/sop/condition.js";

/** One branch of one decision, with the released tasks that take it, or why none does. */
export interface BranchCoverage {
  workflow: string;
  decision: string;
  when: string;
  /** Released tasks on which the branch's condition held (the branch taken). */
  tasks: string[];
  /** Why no released task takes it; null when some do. */
  reason: string | null;
}

/**
 * Branch coverage of a domain's released tasks: every branch of every decision of the workflows
 * the tasks combine, with the tasks whose designer evaluated its condition as holding. A branch no
 * task takes says why: its condition is outside the condition language, is an event the world
 * decides, or held on no released task's state.
 */
export function branchCoverage(sop: Sop, released: readonly Task[]): BranchCoverage[] {
  const used = new Set(released.flatMap((t) => t.workflows));
  const out: BranchCoverage[] = [];
  for (const wf of sop.workflows.filter((w) => used.has(w.id))) {
    for (const d of wf.decisions) {
      for (const b of d.branches) {
        const tasks = released.filter((t) => t.decisions.some((x) => x.workflow === wf.id && x.decision === d.id && x.when === b.when && x.held)).map((t) => t.id).sort();
        const c = parseCondition(b.when);
        const evaluated = released.some((t) => t.decisions.some((x) => x.workflow === wf.id && x.decision === d.id && x.when === b.when));
        const reason =
          tasks.length > 0 ? null
          : c === null ? "the condition is not in the condition language (sources/README.md), so no plan can be made to take it on purpose"
          : c.kind === "event" || (c.kind === "not" && c.of.kind === "event") ? "the condition is an event the world decides (a refusal, a decline, an approval), not evaluated on the state"
          : evaluated ? "the condition was evaluated and did not hold on any released task's state"
          : "no released task reached the decision with a value for the condition's quantity";
        out.push({ workflow: wf.id, decision: d.id, when: b.when, tasks, reason });
      }
    }
  }
  return out;
}
