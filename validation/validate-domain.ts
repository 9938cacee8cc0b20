import type { Task, TaskValidation, ValidationReport } from "../pipeline/schemas/index.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { FoundryError } from "../pipeline/core/errors.js";
import { MUTATION_OPERATOR_NAMES } from "./mutants/registry.js";
import { validateWithRepair, type RepairLoopOptions, type RepairLoopResult } from "./repair-loop.js";

export type DomainValidationOptions = Omit<RepairLoopOptions, "golden">;

/** Per task: the loop's result, or the task and the error that stopped its validation. */
export type TaskOutcome = RepairLoopResult | { task: Task; golden: null; validation: TaskValidation; run: null };

function crashed(task: Task, e: unknown): TaskOutcome {
  const msg = FoundryError.is(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
  const validation: TaskValidation = {
    task: task.id,
    status: "dropped",
    gates: [{ gate: "golden_replay", passed: false, detail: `validation crashed: ${msg}` }],
    mutants: [],
    not_applicable: [],
    kill_rate: null,
    repairs: [],
    probes: {},
    difficulty: null,
    drop_reason: `validation crashed: ${msg}`,
  };
  return { task, golden: null, validation, run: null };
}

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

/**
 * Validate every task of a domain (with repair) and return the per-task outcomes and the report.
 * A task whose validation throws (a solver or repairer crash) is dropped with the error; the
 * others go on. `goldens` maps task ids to golden traces (unparsed JSON is fine: a trace that does
 * not parse is a named failure of the golden-replay gate).
 */
export async function validateDomainFull(
  ctx: DomainContext,
  tasks: readonly Task[],
  goldens: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>,
  opts: DomainValidationOptions = {},
): Promise<{ report: ValidationReport; outcomes: TaskOutcome[] }> {
  const goldenOf = (id: string) => (goldens instanceof Map ? goldens.get(id) : (goldens as Record<string, unknown>)[id]);
  const outcomes: TaskOutcome[] = [];
  for (const task of tasks) {
    try {
      const golden = goldenOf(task.id);
      outcomes.push(await validateWithRepair(ctx, task, { ...opts, ...(golden !== undefined ? { golden } : {}) }));
    } catch (e) {
      outcomes.push(crashed(task, e));
    }
  }
  return { report: summarize(ctx.card.id, outcomes.map((o) => o.validation)), outcomes };
}

/** The validation report of a domain (`generated/<domain>/validation.json`). */
export async function validateDomain(
  ctx: DomainContext,
  tasks: readonly Task[],
  goldens: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>,
  opts: DomainValidationOptions = {},
): Promise<ValidationReport> {
  return (await validateDomainFull(ctx, tasks, goldens, opts)).report;
}
