import type { CheckResult, Task, Trace } from "../pipeline/schemas/index.js";
import { createCheckContext } from "../pipeline/world/check-context.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { runChecks, strictSuccess, type StrictSuccess } from "./checks/index.js";
import { initialStateFor } from "./initial-states.js";

/** Every check of a task run on one trace, with strict success and the ids that failed. */
export interface Judgment {
  results: CheckResult[];
  success: StrictSuccess;
  /** Ids of the failed checks, in check order. */
  failed: string[];
}

/** Judge a trace by the task's checks against the task's own initial state. */
export function judge(ctx: DomainContext, task: Task, trace: Trace): Judgment {
  const checkCtx = createCheckContext(ctx.world, task, initialStateFor(ctx, task));
  try {
    const results = runChecks(task, trace, checkCtx);
    return { results, success: strictSuccess(results), failed: results.filter((r) => !r.passed).map((r) => r.check) };
  } finally {
    checkCtx.close();
  }
}

/** The result of one check in a judgment, or undefined. */
export function resultOf(j: Judgment, check: string): CheckResult | undefined {
  return j.results.find((r) => r.check === check);
}
