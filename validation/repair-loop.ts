import type { Task, TaskValidation, Trace } from "../pipeline/schemas/index.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { canonicalJson } from "../pipeline/core/canonical-json.js";
import { actionsOf, runActions } from "./episode-actions.js";
import { actionsFromPlan } from "./plan-actions.js";
import { parseTrace } from "./parse-trace.js";
import { failed, formatDiagnosis, type Diagnosis } from "./gates/types.js";
import { runGates, type GateOptions, type GateRun } from "./validate-task.js";
import { defaultRepairer } from "./repairs/default-repairer.js";
import type { RepairFn, Repaired } from "./repairs/types.js";
import { taskValidation, type RepairRecord } from "./task-validation.js";

/** What a solver returns: the graph's SolveResult, or a bare trace. */
export type SolveOutcome = { ok: true; trace: Trace } | { ok: false; reason: string } | Trace;
export type SolveFn = (task: Task) => SolveOutcome | Promise<SolveOutcome>;

export interface RepairLoopOptions {
  /** Records a golden trace for a (repaired) task. Default: the golden actions re-run when the plan is unchanged, else the reference plan followed (actionsFromPlan). */
  solve?: SolveFn;
  /** Repairs a task from a diagnosis. Default: defaultRepairer (chain the graph's own with chainRepairers). */
  repair?: RepairFn;
  /** Repair attempts before dropping. Default: the domain card's `generation.repair_attempts` (2). */
  maxAttempts?: number;
  /** A golden trace already recorded for the task (used on the first attempt; may be unparsed JSON). */
  golden?: unknown;
  /** Options of the gates (probes, operators, model probes). */
  gates?: GateOptions;
}

export interface RepairLoopResult {
  /** The task as finally validated (repaired, with its difficulty when released). */
  task: Task;
  /** Its golden trace (null when none parsed). */
  golden: Trace | null;
  validation: TaskValidation;
  /** The last gate run, with mutants and probe traces for reviewers. */
  run: GateRun;
}

/** The plan-following solver: the reference plan through the episode tools. */
export function planSolver(ctx: DomainContext): SolveFn {
  return (task) => runActions(ctx, task, actionsFromPlan(task, ctx.world), { role: "golden", label: "golden" });
}

function normalize(out: SolveOutcome): { trace: unknown } | { reason: string } {
  if ("events" in out) return { trace: out };
  return out.ok ? { trace: out.trace } : { reason: out.reason };
}

/** A gate run that stopped before the gates: no golden trace to judge. */
function unsolved(reason: string): GateRun {
  const g = failed("golden_replay", `no golden trace: ${reason}`, { check: null, event: null, code: "golden_unsolved" });
  return { gates: [g], diagnosis: g.diagnosis, golden: null, mutants: [], notApplicable: [], killRate: null, alternatives: { generated: 0, passed: 0 }, modifiedFacts: [], probes: {}, probeRuns: [], difficulty: null };
}

/**
 * Validate a task, repairing it when a gate fails: run the gates; on a failure build the diagnosis
 * (gate, check, event, detail), ask the repairer, re-solve the repaired task and run the gates again,
 * at most `maxAttempts` times. A task that cannot be repaired is dropped with its reason.
 */
export async function validateWithRepair(ctx: DomainContext, task: Task, opts: RepairLoopOptions = {}): Promise<RepairLoopResult> {
  const maxAttempts = opts.maxAttempts ?? ctx.card.generation.repair_attempts ?? 2;
  const repair = opts.repair ?? defaultRepairer;
  const plan = planSolver(ctx);
  const repairs: RepairRecord[] = [];
  let current = task;
  let golden: { trace: unknown } | { reason: string } = opts.golden !== undefined ? { trace: opts.golden } : normalize(await (opts.solve ?? plan)(task));
  for (let attempt = 0; ; attempt++) {
    const run = "reason" in golden ? unsolved(golden.reason) : await runGates(ctx, current, golden.trace, opts.gates);
    const d = run.diagnosis;
    if (!d) {
      const released = { ...current, difficulty: run.difficulty ?? current.difficulty };
      return { task: released, golden: run.golden, validation: taskValidation(current.id, run, repairs, null), run };
    }
    const drop = (why: string) => ({ task: current, golden: run.golden, validation: taskValidation(current.id, run, repairs, why), run });
    if (attempt >= maxAttempts) return drop(`${formatDiagnosis(d)} (still failing after ${attempt} repair attempt${attempt === 1 ? "" : "s"})`);
    const fixed = await repair(current, d, attempt + 1, { ctx, golden: run.golden });
    if (!fixed) {
      repairs.push({ attempt: attempt + 1, diagnosis: formatDiagnosis(d), action: "none: the repairer had nothing to try" });
      return drop(`cannot be repaired: ${formatDiagnosis(d)}`);
    }
    const next = "action" in fixed && "task" in fixed ? (fixed as Repaired) : { task: fixed as Task, action: "the repairer changed the task" };
    repairs.push({ attempt: attempt + 1, diagnosis: formatDiagnosis(d), action: next.action });
    golden = normalize(await resolve(current, next.task, run.golden, opts.solve, plan, ctx));
    current = next.task;
  }
}

/** Re-solve a repaired task: the given solver; else the old golden actions when the plan did not change. */
async function resolve(before: Task, after: Task, old: Trace | null, solve: SolveFn | undefined, plan: SolveFn, ctx: DomainContext): Promise<SolveOutcome> {
  if (solve) return solve(after);
  if (old && canonicalJson(before.reference_plan) === canonicalJson(after.reference_plan) && canonicalJson(before.initial_state) === canonicalJson(after.initial_state)) {
    return runActions(ctx, after, actionsOf(parseTrace(old)), { role: "golden", label: old.label });
  }
  return plan(after);
}

export type { Diagnosis };
