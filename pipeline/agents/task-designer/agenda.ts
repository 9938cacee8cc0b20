import type { DerivedPlan, PlanUnit } from "../plan/derive-plan.js";
import type { Row } from "../plan/domain-rows.js";
import type { WorldModel } from "../../schemas/index.js";

/** A unit one customer's rows allow on its own, with what its plan exercises. */
export interface SurveyedUnit {
  customer: Row;
  unit: PlanUnit;
  plan: DerivedPlan;
}

/** What a unit's plan exercises: branches it takes, version traps, time (a wait or a deadline), approvals. */
export interface Exercise {
  /** `workflow/decision/when` of every branch whose condition held. */
  branches: string[];
  traps: number;
  timed: boolean;
  approvals: number;
}

export function exerciseOf(plan: DerivedPlan, timedOps: ReadonlySet<string> = new Set()): Exercise {
  return {
    branches: plan.decisions.filter((d) => d.held).map((d) => `${d.workflow}/${d.decision}/${d.when}`),
    traps: plan.decisions.filter((d) => d.outdated).length,
    timed: plan.actions.some((a) => a.type === "wait" || (a.type === "call" && timedOps.has(a.operation))),
    approvals: plan.approvals.length,
  };
}

/**
 * Operations whose call makes time decide a task (the rubric writer's deadline checks): a
 * precondition bounds `:now` by a minute (an absolute deadline), or a scheduled event that
 * implements a deadline rule starts its clock (a quote that expires 30 minutes after it is given).
 */
export function timedOperations(world: WorldModel): Set<string> {
  const out = new Set<string>();
  for (const op of world.operations) if (op.preconditions.some((p) => /:now\s*<=?\s*\d+/.test(p.sql))) out.add(op.name);
  for (const ev of world.events) {
    const rule = world.rules.find((r) => r.id === ev.rule);
    const start = ev.after?.operation;
    if (start && rule?.kind === "deadline") out.add(start);
  }
  return out;
}

/**
 * The slots spent on purpose: an ordered list of anchor units, one per feature a document states
 * that some unit can exercise. First one unit for every decision branch some unit takes (so every
 * reachable branch is covered), then units with a version trap, then units where time decides,
 * then units with an approval, each not already listed. Slot i is anchored on entry i; slots past
 * the list are designed freely. Ties go to the survey order (customers, workflows, rows), so the
 * agenda depends only on the domain.
 */
export function agenda(units: readonly SurveyedUnit[], timedOps: ReadonlySet<string> = new Set()): SurveyedUnit[] {
  const out: SurveyedUnit[] = [];
  const taken = new Set<SurveyedUnit>();
  const add = (u: SurveyedUnit | undefined) => {
    if (u && !taken.has(u)) {
      taken.add(u);
      out.push(u);
    }
  };
  const ex = new Map(units.map((u) => [u, exerciseOf(u.plan, timedOps)]));
  const branches = [...new Set(units.flatMap((u) => ex.get(u)?.branches ?? []))].sort();
  for (const b of branches) {
    if (out.some((u) => ex.get(u)?.branches.includes(b))) continue;
    add(units.find((u) => ex.get(u)?.branches.includes(b)));
  }
  for (const pick of [(e: Exercise) => e.traps > 0, (e: Exercise) => e.timed, (e: Exercise) => e.approvals > 0]) {
    for (const u of units) if (pick(ex.get(u) as Exercise)) add(u);
  }
  return out;
}
