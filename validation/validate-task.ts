import type { DomainCard, SolveRate, Task, TaskValidation, Trace } from "../pipeline/schemas/index.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { FoundryError } from "../pipeline/core/errors.js";
import { canonicalJson } from "../pipeline/core/canonical-json.js";
import { goldenReplayGate } from "./gates/golden-replay.js";
import { scenarioConsistencyGate } from "./gates/scenario-consistency.js";
import { alternativesGate } from "./gates/alternatives.js";
import { violationsGate } from "./gates/violations.js";
import { modifiedFactsGate, type FactTrial } from "./gates/modified-facts.js";
import { probeGates, type ProbeGateOptions } from "./gates/probe-gates.js";
import { failed, type Diagnosis, type GateName, type GateOutcome } from "./gates/types.js";
import type { MutantOutcome } from "./mutants/run-mutants.js";
import type { MutationOperator, NotApplicable } from "./mutants/types.js";
import type { Difficulty, ProbeRun } from "./probes/panel.js";
import { taskValidation } from "./task-validation.js";
import { violationLabel } from "./audit/release-layout.js";

/*
 * The one validation of a task, in three stages the synthesis graph calls from its nodes (so each
 * task slot keeps its own path through the graph):
 *   1. verifyTask     — the gates on a solved task (verify node);
 *   2. mayRepair      — whether a failing task gets another repair round (repair node), from the
 *                       domain card's `generation.repair_attempts`;
 *   3. releaseTasks   — the release rules (at least MIN_KILLED_MUTANTS killed violation traces,
 *                       duplicates dropped) and the probe panel (calibrate node).
 * There is no other implementation of these rules.
 */

/** Violation traces a released task must have, each failing on the check it targets. */
export const MIN_KILLED_MUTANTS = 5;

export interface VerifyOptions {
  /** Mutation operators. Default: the registry (MUTATION_OPERATORS). */
  operators?: readonly MutationOperator[];
}

/** Everything the gates found about one task on one attempt. */
export interface GateRun {
  gates: GateOutcome[];
  /** The first failure, or null when every gate passed. */
  diagnosis: Diagnosis | null;
  /** The golden trace as parsed (null when it did not parse). */
  golden: Trace | null;
  mutants: MutantOutcome[];
  notApplicable: NotApplicable[];
  killRate: number | null;
  alternatives: { generated: number; passed: number };
  /** Modified facts tried, with what each crossed and flipped. */
  modifiedFacts: FactTrial[];
  probes: Record<string, boolean>;
  /** The probe panel's episodes (traces for reviewers). */
  probeRuns: ProbeRun[];
  difficulty: Difficulty | null;
}

/** What verification keeps of a gate run: the diagnosis, the report entry and the violation traces it judged (JSON). */
export interface Verification {
  diagnosis: Diagnosis | null;
  validation: TaskValidation;
  /** One per mutant of the report entry, in its order; labelled `<operator>` then `<operator>-<n>` (violationLabel). */
  violations: Array<{ label: string; trace: Trace }>;
}

/** A gate that threw is a failed gate naming the error, never a crash of the whole validation. */
function guarded<T extends GateOutcome>(gate: GateName, run: () => T): T | GateOutcome {
  try {
    return run();
  } catch (e) {
    const msg = FoundryError.is(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
    return failed(gate, `gate crashed: ${msg}`, { check: null, event: null, code: "gate_crashed" });
  }
}

/** The gates before the probe panel, in order, stopping at the first failure. */
function runGates(ctx: DomainContext, task: Task, golden: unknown, opts: VerifyOptions): GateRun {
  const out: GateRun = { gates: [], diagnosis: null, golden: null, mutants: [], notApplicable: [], killRate: null, alternatives: { generated: 0, passed: 0 }, modifiedFacts: [], probes: {}, probeRuns: [], difficulty: null };
  const stop = (g: GateOutcome) => {
    out.gates.push(g);
    if (!g.passed) out.diagnosis = g.diagnosis;
    return !g.passed;
  };
  const replay = guarded("golden_replay", () => goldenReplayGate(ctx, task, golden));
  out.golden = "trace" in replay ? replay.trace : null;
  if (stop(replay) || !out.golden) return out;
  const trace = out.golden;
  if (stop(guarded("scenario_consistency", () => scenarioConsistencyGate(ctx, task, trace)))) return out;
  const alt = guarded("alternatives", () => alternativesGate(ctx, task, trace));
  if ("generated" in alt) out.alternatives = { generated: alt.generated, passed: alt.passedCount };
  if (stop(alt)) return out;
  const vio = guarded("violations", () => violationsGate(ctx, task, trace, opts.operators));
  if ("mutants" in vio) Object.assign(out, { mutants: vio.mutants, notApplicable: vio.notApplicable, killRate: vio.killRate });
  if (stop(vio)) return out;
  const facts = guarded("modified_facts", () => modifiedFactsGate(ctx, task, trace));
  if ("trials" in facts) out.modifiedFacts = facts.trials;
  stop(facts);
  return out;
}

/**
 * Stage 1: golden replay, scenario consistency, alternative executions, violation traces (mutation
 * operators) and modified facts on one solved task, stopping at the first failure, whose diagnosis
 * goes to the repairer. `golden` may be unparsed JSON: a trace that does not parse is a named
 * failure of the golden-replay gate.
 */
export function verifyTask(ctx: DomainContext, task: Task, golden: unknown, opts: VerifyOptions = {}): Verification {
  const run = runGates(ctx, task, golden, opts);
  const d = run.diagnosis;
  const seen = new Map<string, number>();
  const violations = run.mutants.map((m) => {
    const n = (seen.get(m.operator) ?? 0) + 1;
    seen.set(m.operator, n);
    return { label: violationLabel(m.operator, n), trace: m.trace };
  });
  // JSON round trip: the diagnosis lands in the graph's checkpointed state and the stage cache.
  return { diagnosis: d ? (JSON.parse(JSON.stringify(d)) as Diagnosis) : null, validation: taskValidation(task.id, run, [], d ? `${d.gate}: ${d.detail}` : null), violations };
}

/** Repair attempts a failing task of this domain gets: the card's `generation.repair_attempts`. */
export function repairAttempts(card: DomainCard): number {
  return card.generation.repair_attempts;
}

/**
 * Stage 2: a failing task that has had `done` repairs gets another one, or is dropped with the
 * returned reason (its last diagnosis and the number of attempts).
 */
export function mayRepair(card: DomainCard, done: number, reason: string): { repair: true } | { repair: false; reason: string } {
  const budget = repairAttempts(card);
  if (done < budget) return { repair: true };
  return { repair: false, reason: `${reason} (still failing after ${done} repair attempt${done === 1 ? "" : "s"}; the domain card allows ${budget})` };
}

/**
 * A calibrator's verdict on one verified task (JSON: the graph caches it). `solvability` says what
 * showed the task solvable (default: the competent probe); `solve_rate` is the calibrator model's
 * runs, recorded in the report entry.
 */
export type Calibration =
  | { verdict: "released"; difficulty: NonNullable<Task["difficulty"]>; probes: Record<string, boolean>; detail: string; solvability?: string; solve_rate?: SolveRate }
  | { verdict: "dropped"; reason: string; probes: Record<string, boolean>; solve_rate?: SolveRate };

/** A calibrator: the probe panel (calibrateTask), or the calibrator's llm strategy (a model agent's solve rate). */
export type Calibrate = (task: Task) => Promise<Calibration>;

/** The default calibrator: solvability from the documents and the difficulty label (gates 6 and 7). */
export async function calibrateTask(ctx: DomainContext, task: Task, opts: ProbeGateOptions = {}): Promise<Calibration> {
  const p = await probeGates(ctx, task, opts);
  const failedGate = p.gates.find((g) => !g.passed);
  if (failedGate || !p.difficulty) return { verdict: "dropped", reason: `${failedGate?.gate ?? "difficulty"}: ${failedGate?.detail ?? "no label"}`, probes: p.probes };
  return { verdict: "released", difficulty: p.difficulty, probes: p.probes, detail: p.gates.map((g) => g.detail).join("; ") };
}

/** A task that passed stage 1, with the report entry of its verification. */
export interface ReleaseCandidate {
  task: Task;
  validation: TaskValidation;
}

/** What the release rules decided: the task as released (with its label), or why it is dropped. */
export type ReleaseVerdict = { status: "released"; task: Task; validation: TaskValidation } | { status: "dropped"; reason: string; validation: TaskValidation };

/**
 * Workflows and the plan's calls, each as a sorted multiset: two tasks with the same signature test
 * the same thing, also when they do the same pieces of work in another order.
 */
function signature(task: Task): string {
  return canonicalJson({ workflows: [...task.workflows].sort(), plan: task.reference_plan.map((p) => canonicalJson([p.operation, p.args])).sort() });
}

/**
 * Stage 3, over a domain's verified tasks in order: a task with fewer than MIN_KILLED_MUTANTS killed
 * violation traces is dropped (its checks are not shown to bite); a task that repeats an earlier
 * released task's workflows and plan is dropped as its duplicate; the calibrator runs on the rest
 * (drop when the competent probe cannot solve it or every flawed probe does, else its label).
 */
export async function releaseTasks(candidates: readonly ReleaseCandidate[], opts: { calibrate: Calibrate; onItem?: (done: number, total: number) => void }): Promise<ReleaseVerdict[]> {
  const seen = new Map<string, string>();
  const out: ReleaseVerdict[] = [];
  const drop = (c: ReleaseCandidate, reason: string, probes = c.validation.probes): ReleaseVerdict => ({ status: "dropped", reason, validation: { ...c.validation, status: "dropped", probes, difficulty: null, drop_reason: reason } });
  for (const [i, c] of candidates.entries()) {
    opts.onItem?.(i + 1, candidates.length);
    const killed = c.validation.mutants.filter((m) => m.killed).length;
    if (killed < MIN_KILLED_MUTANTS) {
      out.push(drop(c, `violations: only ${killed} violation trace(s) apply and fail on their target check; a released task needs at least ${MIN_KILLED_MUTANTS}`));
      continue;
    }
    const sig = signature(c.task);
    const first = seen.get(sig);
    if (first) {
      out.push(drop(c, `duplicate of ${first}`));
      continue;
    }
    const cal = await opts.calibrate(c.task);
    const rate = cal.solve_rate ? { solve_rate: cal.solve_rate } : {};
    if (cal.verdict === "dropped") {
      const d = drop(c, cal.reason, cal.probes);
      out.push({ ...d, validation: { ...d.validation, ...rate } });
      continue;
    }
    seen.set(sig, c.task.id);
    const gates = [...c.validation.gates, { gate: "solvability" as const, passed: true, detail: cal.solvability ?? "self-consistency: the competent probe solves the task from the documents, the visible world and the request" }, { gate: "difficulty" as const, passed: true, detail: cal.detail }];
    out.push({ status: "released", task: { ...c.task, difficulty: cal.difficulty }, validation: { ...c.validation, gates, probes: cal.probes, difficulty: cal.difficulty, ...rate } });
  }
  return out;
}
