import type { TaskValidation, ValidationReport } from "../pipeline/schemas/index.js";
import { MUTATION_OPERATOR_NAMES } from "./mutants/registry.js";

// The domain's validation report (`generated/<domain>/validation.json`) from the per-task entries
// that the stages of validate-task.ts produced; the collect node writes it.

/** Registry order for operators (unknown ones, e.g. the graph's own, after them). */
function rank(op: string): number {
  const i = MUTATION_OPERATOR_NAMES.indexOf(op);
  return i < 0 ? MUTATION_OPERATOR_NAMES.length : i;
}

/** Domain totals: released and dropped, repairs, kill rates overall and by operator, survivors. */
export function summarize(domain: string, tasks: readonly TaskValidation[]): ValidationReport {
  const mutants = tasks.flatMap((t) => t.mutants.map((m) => ({ task: t.task, ...m })));
  const killed = mutants.filter((m) => m.killed).length;
  const byOp = new Map<string, { n: number; k: number }>();
  for (const m of mutants) {
    const s = byOp.get(m.operator) ?? { n: 0, k: 0 };
    byOp.set(m.operator, { n: s.n + 1, k: s.k + (m.killed ? 1 : 0) });
  }
  return {
    domain,
    tasks: [...tasks],
    summary: {
      generated: tasks.length,
      released: tasks.filter((t) => t.status === "released").length,
      dropped: tasks.filter((t) => t.status === "dropped").length,
      repaired: tasks.filter((t) => t.repairs.some((r) => !r.action.startsWith("none:"))).length,
      mutants_total: mutants.length,
      mutants_killed: killed,
      kill_rate: mutants.length === 0 ? null : killed / mutants.length,
      kill_rate_by_operator: Object.fromEntries([...byOp].sort(([a], [b]) => rank(a) - rank(b)).map(([op, s]) => [op, s.k / s.n])),
      survivors: mutants.filter((m) => !m.killed).map((m) => ({ task: m.task, operator: m.operator, target_check: m.target_check, reason: m.reason ?? "" })),
    },
  };
}
