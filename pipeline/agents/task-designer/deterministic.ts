import { unitIndex, type SopWorkflow, type Task } from "../../schemas/index.js";
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
        const k = unitCount(rng, Math.min(ctx.card.generation.max_workflows_per_task, singles.length));
        const first = rng.pick(singles);
        const rest = this.#candidates(ctx, index, rows, workflows, customer, unitsOf, rng).filter((u) => !sameUnit(u, first));
        const plan0 = derivePlan(ctx, index, unitsOf([first]), [first]);
        if ("reason" in plan0) {
          failures.push(plan0.reason);
          continue;
        }
        const { units, plan } = compose(ctx, index, unitsOf, { units: [first], plan: plan0 }, rest, k, (u) => this.#plans.has(`${ctx.card.id}|${u.workflow.id}|${String(u.key)}`));
        const renewed = renewal(ctx, index, unitsOf, units, plan, rng);
        const task = buildTask(ctx, id, customer, index.customerTable.primary_key, units, renewed.plan.facts, renewed.plan.approvals, toReferencePlan(renewed.plan.actions), undefined, renewed.plan.decisions, renewed.renewals);
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

  /**
   * The units a combination may add for this customer, in a seeded order that favours long work:
   * every unit of the customer, also one that cannot be carried out alone (a payment to a
   * beneficiary still awaiting its call-back becomes possible after the call-back: pieces of work
   * that create each other's prerequisites). A unit weighs its plan's length alone, or the median
   * length when it has no plan alone.
   */
  #candidates(ctx: DomainContext, index: WorldIndex, rows: DomainRows, workflows: readonly SopWorkflow[], customer: Row, unitsOf: (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => Task, rng: RandomStream): PlanUnit[] {
    const all = this.surveyUnits(ctx, index, rows, workflows, customer, unitsOf).map((u) => u.unit);
    const length = (u: PlanUnit) => this.#plans.get(`${ctx.card.id}|${u.workflow.id}|${String(u.key)}`)?.actions.filter((a) => a.type === "call").length;
    const known = all.map(length).filter((n): n is number => n !== undefined).sort((a, b) => a - b);
    const median = known[Math.floor(known.length / 2)] ?? 1;
    const left = [...all];
    const out: PlanUnit[] = [];
    while (left.length > 0) {
      const u = rng.pick(left, left.map((x) => length(x) ?? median));
      out.push(u);
      left.splice(left.indexOf(u), 1);
    }
    return out;
  }

  /** A task around an anchor unit: the anchor first (its plan runs on the state it was surveyed on), then more units of the same customer as long as the combination can be carried out. */
  #around(ctx: DomainContext, index: WorldIndex, rows: DomainRows, workflows: readonly SopWorkflow[], anchor: SurveyedUnit, id: string, rng: RandomStream): { task: Task } | { reason: string } {
    const customer = anchor.customer;
    const unitsOf = (u: PlanUnit[]) => (facts: NeededFact[], approvals: DerivedPlan["approvals"]): Task => buildTask(ctx, id, customer, index.customerTable.primary_key, u, facts, approvals, []);
    const others = this.#candidates(ctx, index, rows, workflows, customer, unitsOf, rng).filter((u) => !sameUnit(u, anchor.unit));
    const k = unitCount(rng, Math.min(ctx.card.generation.max_workflows_per_task, 1 + others.length));
    const alone = derivePlan(ctx, index, unitsOf([anchor.unit]), [anchor.unit]);
    if ("reason" in alone) return { reason: alone.reason };
    const { units, plan } = compose(ctx, index, unitsOf, { units: [anchor.unit], plan: alone }, others, k, (u) => this.#plans.has(`${ctx.card.id}|${u.workflow.id}|${String(u.key)}`));
    const renewed = renewal(ctx, index, unitsOf, units, plan, rng);
    return { task: buildTask(ctx, id, customer, index.customerTable.primary_key, units, renewed.plan.facts, renewed.plan.approvals, toReferencePlan(renewed.plan.actions), undefined, renewed.plan.decisions, renewed.renewals) };
  }
}

/** Plan derivations one combination may spend while it grows (each candidate at each position is one). */
const COMPOSE_BUDGET = 160;

/**
 * Grows a combination one unit at a time: each candidate, in the order given, is tried at every
 * position, latest first (a unit that cannot be carried out alone only at the end: it waits for
 * what earlier units make possible), and kept where the plan of the longer combination exists on
 * the live state and the anchor still decides as it did alone (its branches and traps are what the
 * slot is for). So later units run on the state earlier ones leave (a limit used, an attendance
 * closed, a beneficiary verified) and an order that cannot be carried out is never chosen. Stops at
 * k units, when no candidate fits anywhere, or when the derivation budget is spent (`mayJoin`
 * says which pieces may share a row).
 */
function compose(ctx: DomainContext, index: WorldIndex, unitsOf: (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => Task, start: { units: PlanUnit[]; plan: DerivedPlan }, candidates: readonly PlanUnit[], k: number, alone: (u: PlanUnit) => boolean): { units: PlanUnit[]; plan: DerivedPlan } {
  let budget = COMPOSE_BUDGET;
  const anchor = start.units[0] as PlanUnit;
  // The anchor's decisions, wherever it stands in the combination (its `unit` tag follows its position).
  const decidedBy = (units: readonly PlanUnit[], plan: DerivedPlan) => {
    const ids = units.map((u) => u.workflow.id);
    const at = units.indexOf(anchor);
    return JSON.stringify(plan.decisions.filter((d) => unitIndex(d, ids) === at).map(({ unit: _, ...d }) => d));
  };
  const before = decidedBy(start.units, start.plan);
  let best = start;
  const left = [...candidates];
  while (best.units.length < k) {
    let grown: typeof best | null = null;
    for (let i = 0; i < left.length && !grown && budget > 0; i++) {
      const u = left[i] as PlanUnit;
      if (!mayJoin(index, best.units, u, alone)) continue;
      for (let at = best.units.length; at >= (alone(u) ? 0 : best.units.length) && !grown && budget-- > 0; at--) {
        const units = [...best.units.slice(0, at), u, ...best.units.slice(at)];
        const plan = derivePlan(ctx, index, unitsOf(units), units);
        if (!("reason" in plan) && decidedBy(units, plan) === before) {
          grown = { units, plan };
          left.splice(i, 1);
        }
      }
    }
    if (!grown) break;
    best = grown;
  }
  return best;
}

/**
 * Whether `u` may join a combination: it is not already in it, and on a row some piece already
 * works on it must be possible alone and decide no column that piece decides (a payment released
 * and then recalled, or moved to tomorrow and then cancelled, is not a request a customer makes;
 * an attendance reassessed and then handed over is).
 */
export function mayJoin(index: WorldIndex, units: readonly PlanUnit[], u: PlanUnit, alone: (u: PlanUnit) => boolean): boolean {
  return !units.some((x) => sameUnit(x, u) || (sameRow(x, u) && (!alone(u) || decidesSameColumns(index, x, u))));
}

/**
 * Whether two pieces of work on one row would both decide the same column (a payment moved to the
 * next day and then cancelled): the later one would undo what the customer asked for first. Each
 * workflow's outcome is its last agent write.
 */
function decidesSameColumns(index: WorldIndex, a: PlanUnit, b: PlanUnit): boolean {
  const outcome = (u: PlanUnit) => new Set(index.setColumns(index.agentWrites(u.workflow).at(-1) ?? "", u.table.name));
  const ca = outcome(a);
  return [...outcome(b)].some((c) => ca.has(c));
}

function sameRow(a: PlanUnit, b: PlanUnit): boolean {
  return a.table.name === b.table.name && a.key === b.key;
}

function sameUnit(a: PlanUnit, b: PlanUnit): boolean {
  return a.workflow.id === b.workflow.id && a.table.name === b.table.name && a.key === b.key;
}

/**
 * Renewed approvals: where the plan proposes terms with a number only the customer gives (a
 * corrected customs value), the seed decides whether the customer corrects that number right after
 * approving it (by 4%, rounded to cents). The corrected terms need a new proposal and a new approval;
 * the stale approval stays approved in the state, so an agent that executes the old terms is caught
 * by the approval check, not by the world. Kept only when the renewed plan can be carried out.
 */
function renewal(ctx: DomainContext, index: WorldIndex, unitsOf: (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => Task, units: PlanUnit[], plan: DerivedPlan, rng: RandomStream): { plan: DerivedPlan; renewals: Task["scenario"]["renewals"] } {
  const candidates = plan.approvals.flatMap((a) => {
    const proposer = ctx.world.operations.find((o) => o.proposes?.kind === a.kind);
    return Object.entries(a.terms)
      .filter(([t, v]) => proposer?.params[t]?.source === "customer" && proposer.params[t]?.type === "number" && typeof v === "number")
      .map(([param, v]) => ({ kind: a.kind, param, old: v as number }));
  });
  if (candidates.length === 0 || !rng.pick([true, false])) return { plan, renewals: [] };
  const c = rng.pick(candidates);
  const value = Math.round(c.old * 1.04 * 100) / 100;
  const statement = `One correction to what I just approved, please: the ${c.param.replace(/_/g, " ")} must be ${value.toFixed(2)}, not ${c.old.toFixed(2)}.`;
  const renewals = [{ kind: c.kind, param: c.param, value, statement }];
  const renewed = derivePlan(ctx, index, unitsOf(units), units, renewals);
  return "reason" in renewed ? { plan, renewals: [] } : { plan: renewed, renewals };
}

/** How many units a task combines (1..max): n units weigh n², so long combinations are the rule and short ones stay possible (a combination also ends early when nothing more fits). */
function unitCount(rng: RandomStream, max: number): number {
  const sizes = Array.from({ length: Math.max(1, max) }, (_, i) => i + 1);
  return rng.pick(sizes, sizes.map((n) => n * n));
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
  renewals: Task["scenario"]["renewals"] = [],
): Task {
  const cKey = String(customer[customerKey]);
  const scenario = { ...buildScenario(ctx, customer, units, facts, approvals, renewals), ...(narrative ?? {}) };
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
    // Room for an agent that reads, asks and checks more than the reference plan: three turns per
    // agent step of it (the evaluator's default tool-call bound is three per golden call), at least 60.
    max_turns: Math.max(60, 3 * plan.filter((s) => s.actor === "agent").length),
  };
}

