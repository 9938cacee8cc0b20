import type { Task, TaskValidation, WorldModel } from "../pipeline/schemas/index.js";

/** One invariant rule of the world, with the released tasks that test it, or why none does. */
export interface InvariantCoverage {
  rule: string;
  table: string;
  /** Released tasks with an `invariant_holds` check on the rule. */
  checked: string[];
  /** Of those, the tasks where a breach-then-restore violation trace broke the invariant and the check caught it. */
  tested: string[];
  /** Why no released task tests it; null when some do. */
  reason: string | null;
}

const BREACH = "breach_constraint_then_restore";

/**
 * Invariant coverage of a domain's released tasks: an invariant is tested by a task when a
 * violation trace breached it for one step and restored it, and the task's `invariant_holds` check
 * on it failed. A check alone is not a test: a task whose calls can never move the quantity has the
 * check and nothing that exercises it. An untested invariant says why (no released task changes its
 * table, or the breach operator's reason on the tasks that check it).
 */
export function invariantCoverage(world: WorldModel, released: readonly Task[], reports: readonly TaskValidation[]): InvariantCoverage[] {
  const byTask = new Map(reports.map((r) => [r.task, r]));
  return world.rules
    .filter((r) => r.kind === "invariant" && r.invariant)
    .map((rule) => {
      const checks = new Map(released.map((t) => [t.id, t.checks.process.filter((c) => c.kind === "invariant_holds" && (c.params as { rule?: string }).rule === rule.id).map((c) => c.id)]));
      const checked = released.filter((t) => (checks.get(t.id) ?? []).length > 0).map((t) => t.id).sort();
      const tested = checked.filter((id) => byTask.get(id)?.mutants.some((m) => m.operator === BREACH && m.killed && m.target_check !== null && (checks.get(id) ?? []).includes(m.target_check))).sort();
      const why = checked.flatMap((id) => (byTask.get(id)?.not_applicable ?? []).filter((n) => n.operator === BREACH && (checks.get(id) ?? []).some((c) => n.reason.includes(`check ${c}:`))).map((n) => `${id}: ${n.reason}`));
      const reason =
        tested.length > 0 ? null
        : checked.length === 0 ? `no released task changes ${rule.invariant?.table}, so none checks it`
        : why.length > 0 ? `no violation trace could breach it and restore it: ${why.slice(0, 3).join("; ")}${why.length > 3 ? `; … and ${why.length - 3} more` : ""}`
        : "its breach-then-restore violation traces were not killed on its check";
      return { rule: rule.id, table: rule.invariant?.table ?? "", checked, tested, reason };
    });
}
