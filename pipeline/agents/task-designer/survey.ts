import type { Task } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";
import { WorldIndex } from "../plan/world-index.js";
import { DomainRows, type Row } from "../plan/domain-rows.js";
import type { DerivedPlan, NeededFact, PlanUnit } from "../plan/derive-plan.js";
import { DeterministicTaskDesigner, buildTask, designableWorkflows, isCurrent, namedCustomers } from "./deterministic.js";

/** One unit of work the designer cannot use, and why (the step, the missing value, the refusing precondition). */
export interface UnusableUnit {
  /** `<workflow id>` alone when the whole workflow is unusable, else `<workflow id> on <table> <key>`. */
  item: string;
  reason: string;
}

/** What the designer can build tasks from: how many units it tried, how many work alone, and why each other one does not. */
export interface UnitSurvey {
  units: number;
  feasible: number;
  unusable: UnusableUnit[];
}

/**
 * Survey every unit of work of a domain (each designable workflow on each subject row a named
 * customer owns) by deriving its plan alone on the live state, so a build can say which units no
 * task can use and why, instead of leaving a new domain's author to find out from the code. Also
 * names in-force workflows the designer skips outright (no agent write, no subject row of a customer).
 */
export function surveyUnits(ctx: DomainContext, designer: DeterministicTaskDesigner = new DeterministicTaskDesigner()): UnitSurvey {
  const index = new WorldIndex(ctx.world);
  const rows = new DomainRows(ctx, index);
  try {
    const unusable: UnusableUnit[] = [];
    for (const wf of ctx.sop.workflows) {
      if (isCurrent(ctx, wf) && index.agentWrites(wf).length === 0) unusable.push({ item: wf.id, reason: "no step of the workflow names an agent write operation, so no task can be built from it alone" });
    }
    const workflows = designableWorkflows(ctx, index);
    const key = index.customerTable.primary_key;
    const customers = namedCustomers(ctx, index);
    const seen = new Map<string, number>();
    let units = 0;
    let feasible = 0;
    for (const customer of customers) {
      const unitsOf = (u: PlanUnit[]) => (facts: NeededFact[], approvals: DerivedPlan["approvals"]): Task => buildTask(ctx, `${ctx.card.id}-survey`, customer as Row, key, u, facts, approvals, []);
      for (const { unit, reason } of designer.surveyUnits(ctx, index, rows, workflows, customer as Row, unitsOf)) {
        units++;
        seen.set(unit.workflow.id, (seen.get(unit.workflow.id) ?? 0) + 1);
        if (reason === null) feasible++;
        else {
          const item = `${unit.workflow.id} on ${unit.table.name} ${String(unit.key)}`;
          unusable.push({ item, reason: reason.startsWith(`workflow ${item}: `) ? reason.slice(`workflow ${item}: `.length) : reason });
        }
      }
    }
    for (const wf of workflows) {
      if (!seen.has(wf.id)) unusable.push({ item: wf.id, reason: `no row of ${index.subjectTable(wf).name} (the table the workflow is about) belongs to a row of ${index.customerTable.name}` });
    }
    return { units, feasible, unusable };
  } finally {
    rows.close();
  }
}
