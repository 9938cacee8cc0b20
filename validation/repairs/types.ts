import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import type { Diagnosis } from "../gates/types.js";

/** What a repairer may look at besides the task and the diagnosis. */
export interface RepairInfo {
  ctx: DomainContext;
  /** The golden trace of the failed attempt (null when there was none that parsed). */
  golden: Trace | null;
}

/** A repaired task and what was changed, in words. */
export interface Repaired {
  task: Task;
  action: string;
}

/**
 * A repairer: a repaired task (optionally with what it changed), or null when it has nothing to try.
 * The graph's `Repairer.repair(ctx, task, diagnosis, attempt)` fits once its ctx is bound.
 */
export type RepairFn = (task: Task, diagnosis: Diagnosis, attempt: number, info: RepairInfo) => Task | Repaired | null | Promise<Task | Repaired | null>;
