import type { Task, ValidationReport } from "../schemas/index.js";
import type { TaskFacts } from "./collect-domain.js";
import { isTrapCheck, wrongVersionFailures } from "../../validation/task-traps.js";

/** What a domain's released tasks exercise, for the datasheet (every figure recomputable from tasks and validation.json). */
export interface ExerciseFigures {
  /** Decision branches some released task takes / branches of the decisions of the workflows they combine. */
  branches: { taken: number; total: number };
  /** Tasks with a version or scope trap: a check naming a clause of a version not in force, or a rule-version check. */
  traps: number;
  /** Trap tasks on which a probe that follows a version not in force (newest-version, first-found) failed: traps that bite. */
  trapsBite: number;
  /** Tasks whose outcome a time decides: a deadline check, a wait in the golden plan, or a scheduled event. */
  timed: number;
  /** Tasks with an invariant under test: a violation trace breached it for one step and the check caught it. */
  invariants: number;
  /** Tasks with an invariant check (tested or not). */
  invariantsChecked: number;
  /** Tasks that need the customer's approval: an approval_before_execution check. */
  approvals: number;
  /** Tasks where the customer corrects approved terms, so a new approval is needed: a scenario renewal. */
  renewals: number;
  /** Released tasks the newest-version / first-found probe solves. */
  newestSolves: number;
  firstFoundSolves: number;
  tasks: number;
}

/** Whether a task contains a version or scope trap. */
export function hasVersionTrap(t: Task): boolean {
  return [...t.checks.goal, ...t.checks.process, ...t.checks.protection].some(isTrapCheck);
}

/** Whether a time decides a task's outcome. */
export function isTimed(t: Task): boolean {
  return t.scheduled_events.length > 0 || t.reference_plan.some((p) => p.operation === "wait") || t.checks.process.some((c) => c.kind === "deadline_met");
}

/** The exercise figures of one domain's released tasks. */
export function exerciseFigures(tasks: readonly Pick<TaskFacts, "id" | "versionTrap" | "timed" | "invariant" | "approval" | "renewal">[], report: ValidationReport): ExerciseFigures {
  const released = new Set(tasks.map((t) => t.id));
  const probes = report.tasks.filter((t) => released.has(t.task)).map((t) => t.probes);
  const byTask = new Map(report.tasks.map((t) => [t.task, t.probes]));
  const branches = report.branches ?? [];
  return {
    branches: { taken: branches.filter((b) => b.tasks.length > 0).length, total: branches.length },
    traps: tasks.filter((t) => t.versionTrap).length,
    trapsBite: tasks.filter((t) => t.versionTrap && wrongVersionFailures(byTask.get(t.id) ?? {}).length > 0).length,
    timed: tasks.filter((t) => t.timed).length,
    invariants: new Set((report.invariants ?? []).flatMap((i) => i.tested).filter((id) => released.has(id))).size,
    invariantsChecked: tasks.filter((t) => t.invariant).length,
    approvals: tasks.filter((t) => t.approval).length,
    renewals: tasks.filter((t) => t.renewal).length,
    newestSolves: probes.filter((p) => p["newest-version"] === true).length,
    firstFoundSolves: probes.filter((p) => p["first-found"] === true).length,
    tasks: tasks.length,
  };
}
