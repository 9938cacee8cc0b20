import type { Task, Trace } from "../schemas/index.js";
import type { DomainContext } from "../world/domain-context.js";
import type { RandomStream } from "../core/random.js";
import type { Calibration } from "../../validation/validate-task.js";

export type { DomainContext };

/** A task slot's outcome from the designer: a task without checks yet, or why none could be made. */
export type DesignResult = { ok: true; task: Task } | { ok: false; reason: string };

/** The output of the solver: the golden trace, or why the task could not be solved. */
export type SolveResult = { ok: true; trace: Trace } | { ok: false; reason: string };

/** Where a failing task failed: the gate, the check (if any) and the event (if any). */
export interface Diagnosis {
  gate: string;
  check: string | null;
  event: number | null;
  detail: string;
  /** Machine-readable cause (e.g. `weak_goal_check`, `survivor_never_executed`), when the gate gives one. */
  code?: string;
  /** Mutation operator or fact involved, when there is one. */
  operator?: string;
  fact?: string;
}

/** The agent roles of the graph, each with a deterministic and an llm strategy behind one interface. */
export interface TaskDesigner {
  design(ctx: DomainContext, slot: number, rng: RandomStream): Promise<DesignResult>;
}
export interface RubricWriter {
  /** Returns the task with its acceptance checks (written before the golden trace exists). */
  writeChecks(ctx: DomainContext, task: Task): Promise<Task>;
}
export interface Solver {
  solve(ctx: DomainContext, task: Task): Promise<SolveResult>;
}
/** A repair: the changed task, what was done, and where the graph resumes (rewrite checks, or re-solve). */
export interface RepairResult {
  task: Task;
  action: string;
  resume: "designed" | "checked";
}
export interface Repairer {
  /** A repaired task, or null when the repairer has nothing to try. */
  repair(ctx: DomainContext, task: Task, diagnosis: Diagnosis, attempt: number, golden: Trace | null): Promise<RepairResult | null>;
}
export interface Calibrator {
  /** Whether a verified task is released and with which difficulty label, or why it is dropped. */
  calibrate(ctx: DomainContext, task: Task): Promise<Calibration>;
  /** What besides the task, world and SOP its verdict depends on (part of the calibrate stage's cache key). */
  settings(ctx: DomainContext): unknown;
}

/** What drafting a world gave: the draft, whether it passed its checks (and may be written as world.yaml), and its review list. */
export interface WorldDraftOutcome {
  /** The world.yaml text to write: the draft that passed its checks, or null when none did. */
  yaml: string | null;
  review: import("../schemas/world-review.js").WorldReview;
}
export interface WorldDrafter {
  /** Draft the world of the domain folder `dir` from its documents (an existing world.yaml is never read). */
  draft(dir: string): Promise<WorldDraftOutcome>;
}

/** The environment builder's writer of environment configurations (llm strategy; the deterministic rendering is pipeline/world/env-config). */
export interface EnvConfigWriter {
  /** Rewrite the deterministic configuration `base` of one task from the documents. */
  write(
    base: import("../schemas/env-config.js").EnvConfig,
    input: { world: import("../world/compile-world.js").CompiledWorld; state: import("../world/build-state.js").InitialState; documents: readonly import("../world/documents-tool.js").KnowledgeDocument[] },
  ): Promise<import("../schemas/env-config.js").EnvConfig>;
}
