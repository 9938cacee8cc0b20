import type { SopWorkflow, Task } from "../../schemas/index.js";
import type { RandomStream } from "../../core/random.js";
import type { DesignResult, DomainContext, TaskDesigner } from "../types.js";
import { WorldIndex } from "../plan/world-index.js";
import { DomainRows, type Row } from "../plan/domain-rows.js";
import { derivePlan, type DerivedPlan, type NeededFact, type PlanUnit } from "../plan/derive-plan.js";
import { toReferencePlan } from "../plan/actions.js";
import { buildScenario } from "./scenario.js";
import { documentsFor } from "./documents.js";
import { agenda, timedOperations, type SurveyedUnit } from "./agenda.js";

/** Attempts per slot before the slot is reported empty. */
const ATTEMPTS = 12;

/**
 * The task designer's embedded strategy. A slot picks a customer (slots are spread over the
 * customers named in the world), one to three workflows that have a subject row of that customer,
 * and proves the combination executable by deriving a plan on the live state; the task's scenario,
 * facts and approvals come out of that plan. Difficulty comes from structure: workflows combined,
 * approvals, facts to elicit, waits, distractor documents.
 */
export class DeterministicTaskDesigner implements TaskDesigner {
  /** Why a (workflow, subject) unit cannot be carried out alone (null: it can); shared by the slots of one build. */
  readonly #infeasible = new Map<string, string | null>();
  /** The plan of each unit that can be carried out alone, by the same key. */
  readonly #plans = new Map<string, DerivedPlan>();
  /** The anchors of the slots, per domain (agenda.ts). */
  readonly #agendas = new Map<string, SurveyedUnit[]>();

  /** Units (workflow + subject row of this customer) that can be carried out on their own. */
  feasibleUnits(ctx: DomainContext, index: WorldIndex, rows: DomainRows, workflows: readonly SopWorkflow[], customer: Row, unitsOf: (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => Task): PlanUnit[] {
    return this.surveyUnits(ctx, index, rows, workflows, customer, unitsOf)
      .filter((u) => u.reason === null)
      .map((u) => u.unit);
  }

  /** Every unit (workflow + subject row of this customer) with why it cannot be carried out alone, or null when it can. */
  surveyUnits(ctx: DomainContext, index: WorldIndex, rows: DomainRows, workflows: readonly SopWorkflow[], customer: Row, unitsOf: (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => Task): Array<{ unit: PlanUnit; reason: string | null }> {
    const cKey = customer[index.customerTable.primary_key];
    const out: Array<{ unit: PlanUnit; reason: string | null }> = [];
    for (const wf of workflows) {
      const table = index.subjectTable(wf);
      for (const row of rows.owned(table, cKey)) {
        const unit: PlanUnit = { workflow: wf, table, key: row[table.primary_key] as string | number, row, related: rows.related(table, row, cKey) };
        const memoKey = `${ctx.card.id}|${wf.id}|${String(unit.key)}`;
        let reason = this.#infeasible.get(memoKey);
        if (reason === undefined) {
          const plan = derivePlan(ctx, index, unitsOf([unit]), [unit]);
          reason = "reason" in plan ? plan.reason : null;
          this.#infeasible.set(memoKey, reason);
          if (!("reason" in plan)) this.#plans.set(memoKey, plan);
        }
        out.push({ unit, reason });
      }
    }
    return out;
  }

  async design(ctx: DomainContext, slot: number, rng: RandomStream): Promise<DesignResult> {
    const index = new WorldIndex(ctx.world);
    const rows = new DomainRows(ctx, index);
    try {
      const customers = namedCustomers(ctx, index);
      if (customers.length === 0) return { ok: false, reason: `the world names no rows of ${ctx.world.customer_table}` };
      const workflows = designableWorkflows(ctx, index);
      const failures: string[] = [];
      const id = `${ctx.card.id}-${String(slot + 1).padStart(3, "0")}`;
      // Slots are spent on purpose first: slot i is anchored on the i-th unit of the domain's agenda.
      const anchor = this.#agenda(ctx, index, rows, workflows, customers)[slot];
      if (anchor) {
        const designed = this.#around(ctx, index, rows, workflows, anchor, id, rng);
        if ("task" in designed) return { ok: true, task: designed.task };
        failures.push(designed.reason);
      }
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const customer = customers[(slot + attempt * 7) % customers.length] as Row;
        const cKey = customer[index.customerTable.primary_key];
        const unitsOf = (u: PlanUnit[]) => (facts: NeededFact[], approvals: DerivedPlan["approvals"]): Task => buildTask(ctx, id, customer, index.customerTable.primary_key, u, facts, approvals, []);
        const singles = this.feasibleUnits(ctx, index, rows, workflows, customer, unitsOf);
        if (singles.length === 0) {
          failures.push(`${String(cKey)}: no workflow can be carried out for this customer's rows`);
          continue;
        }
        const distinctWorkflows = new Set(singles.map((u) => u.workflow.id)).size;
        const max = Math.min(ctx.card.generation.max_workflows_per_task, 3, distinctWorkflows);
        const k = rng.pick([1, 2, 3].filter((n) => n <= max), [1, 3, 3].slice(0, max));
        const units: PlanUnit[] = [];
        for (const u of rng.shuffle(singles)) {
          if (units.length >= k) break;
          if (units.some((x) => x.workflow.id === u.workflow.id || (x.table.name === u.table.name && x.key === u.key))) continue;
          units.push(u);
        }
        const plan = derivePlan(ctx, index, unitsOf(units), units);
        if ("reason" in plan) {
          failures.push(plan.reason);
          continue;
        }
        const task = buildTask(ctx, id, customer, index.customerTable.primary_key, units, plan.facts, plan.approvals, toReferencePlan(plan.actions), undefined, plan.decisions);
        return { ok: true, task };
      }
      return { ok: false, reason: `no executable combination in ${ATTEMPTS} attempts; last: ${failures[failures.length - 1] ?? "none"}` };
    } finally {
      rows.close();
    }
  }

  /** The domain's agenda of anchor units (agenda.ts), surveyed once per build. */
  #agenda(ctx: DomainContext, index: WorldIndex, rows: DomainRows, workflows: readonly SopWorkflow[], customers: readonly Row[]): SurveyedUnit[] {
    const cached = this.#agendas.get(ctx.card.id);
    if (cached) return cached;
    const surveyed: SurveyedUnit[] = [];
    for (const customer of customers) {
      const unitsOf = (u: PlanUnit[]) => (facts: NeededFact[], approvals: DerivedPlan["approvals"]): Task => buildTask(ctx, "survey", customer, index.customerTable.primary_key, u, facts, approvals, []);
      for (const unit of this.feasibleUnits(ctx, index, rows, workflows, customer, unitsOf)) {
        const plan = this.#plans.get(`${ctx.card.id}|${unit.workflow.id}|${String(unit.key)}`);
        if (plan) surveyed.push({ customer, unit, plan });
      }
    }
    const list = agenda(surveyed, timedOperations(ctx.world));
    this.#agendas.set(ctx.card.id, list);
    return list;
  }

  /** A task around an anchor unit: the anchor first (its plan runs on the state it was surveyed on), then up to two more units of the same customer. */
  #around(ctx: DomainContext, index: WorldIndex, rows: DomainRows, workflows: readonly SopWorkflow[], anchor: SurveyedUnit, id: string, rng: RandomStream): { task: Task } | { reason: string } {
    const customer = anchor.customer;
    const unitsOf = (u: PlanUnit[]) => (facts: NeededFact[], approvals: DerivedPlan["approvals"]): Task => buildTask(ctx, id, customer, index.customerTable.primary_key, u, facts, approvals, []);
    const others = this.feasibleUnits(ctx, index, rows, workflows, customer, unitsOf).filter((u) => u.workflow.id !== anchor.unit.workflow.id && !(u.table.name === anchor.unit.table.name && u.key === anchor.unit.key));
    const max = Math.min(ctx.card.generation.max_workflows_per_task, 3, 1 + new Set(others.map((u) => u.workflow.id)).size);
    const k = rng.pick([1, 2, 3].filter((n) => n <= max), [1, 3, 3].slice(0, max));
    const tries: PlanUnit[][] = [];
    const units: PlanUnit[] = [anchor.unit];
    for (const u of rng.shuffle(others)) {
      if (units.length >= k) break;
      if (units.some((x) => x.workflow.id === u.workflow.id || (x.table.name === u.table.name && x.key === u.key))) continue;
      units.push(u);
    }
    // The combination first, then the anchor alone (its plan is known to exist).
    tries.push(units);
    if (units.length > 1) tries.push([anchor.unit]);
    let reason = "";
    for (const us of tries) {
      const plan = derivePlan(ctx, index, unitsOf(us), us);
      if ("reason" in plan) {
        reason = plan.reason;
        continue;
      }
      return { task: buildTask(ctx, id, customer, index.customerTable.primary_key, us, plan.facts, plan.approvals, toReferencePlan(plan.actions), undefined, plan.decisions) };
    }
    return { reason };
  }
}

/** Customers tasks can be about: the fixed rows of the customer table (the world's named cases). */
export function namedCustomers(ctx: DomainContext, index: WorldIndex): Row[] {
  return index.customerTable.rows as Row[];
}

/** The workflows tasks are designed from: in force, and with at least one agent write. */
export function designableWorkflows(ctx: DomainContext, index: WorldIndex): SopWorkflow[] {
  return ctx.sop.workflows.filter((w) => index.agentWrites(w).length > 0 && isCurrent(ctx, w));
}

/** Only procedures from document versions in force on the domain's date are designed from. */
export function isCurrent(ctx: DomainContext, wf: SopWorkflow): boolean {
  const doc = ctx.sop.documents.find((d) => d.id === wf.document && d.version === wf.version);
  return !doc || doc.status === "current";
}

export function buildTask(
  ctx: DomainContext,
  id: string,
  customer: Row,
  customerKey: string,
  units: readonly PlanUnit[],
  facts: readonly NeededFact[],
  approvals: DerivedPlan["approvals"],
  plan: Task["reference_plan"],
  narrative?: { persona: string; opening_request: string },
  decisions: Task["decisions"] = [],
): Task {
  const cKey = String(customer[customerKey]);
  const scenario = { ...buildScenario(ctx, customer, units, facts, approvals), ...(narrative ?? {}) };
  return {
    id,
    domain: ctx.card.id,
    title: units.map((u) => `${u.workflow.title} (${String(u.key)})`).join("; "),
    objective: `For ${cKey}: ${units.map((u) => `${u.workflow.title.toLowerCase()} for ${u.table.name} ${String(u.key)}`).join(", then ")}, following the procedures and rules in force on ${ctx.card.as_of}.`,
    workflows: units.map((u) => u.workflow.id),
    as_of: ctx.card.as_of,
    customer_id: cKey,
    initial_state: [],
    scheduled_events: [],
    scenario,
    checks: {
      goal: [
        {
          id: "goal-plan",
          group: "goal",
          kind: "action_executed",
          params: { operation: units[0] ? ctx.world.operations.find((o) => o.side === "agent" && o.access === "write")?.name ?? "none" : "none" },
          description: "Placeholder until the rubric writer derives the checks.",
          provenance: { source: "customer", at: { task: id, requirement: "objective" } },
        },
      ],
      process: [],
      protection: [],
    },
    reference_plan: plan.length > 0 ? plan : [{ step: 1, actor: "agent", operation: "wait", args: { minutes: 0 }, workflow: null, sop_step: null, why: "draft" }],
    decisions: [...decisions],
    documents: documentsFor(ctx, units),
    difficulty: null,
    max_turns: 60,
  };
}

