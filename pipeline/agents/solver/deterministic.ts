import type { Task } from "../../schemas/index.js";
import type { DomainContext, SolveResult, Solver } from "../types.js";
import { executePlan } from "../plan/execute-plan.js";
import { fromReferencePlan } from "../plan/actions.js";

/**
 * The solver's embedded strategy: perform the task's reference plan through the agent's tools with
 * the scripted customer, and keep the trace as the golden trace. The plan itself was derived from
 * the SOP on the live state by the task designer; a call that does not execute here means the task
 * changed since, and the task is reported unsolved rather than recorded with a failing step.
 */
export class DeterministicSolver implements Solver {
  async solve(ctx: DomainContext, task: Task): Promise<SolveResult> {
    const run = executePlan(ctx, task, fromReferencePlan(task.reference_plan), { role: "golden" });
    try {
      const bad = run.outcomes.find((o) => o.action.type !== "ask" && o.outcome?.status !== "executed");
      if (bad) {
        const what = bad.action.type === "call" ? bad.action.operation : bad.action.type;
        return { ok: false, reason: `plan step ${run.outcomes.indexOf(bad) + 1} (${what}) did not execute: ${bad.outcome?.reason ?? "the customer declined or there was nothing to approve"}` };
      }
      const missing = run.outcomes.find((o) => o.action.type === "ask" && o.facts.length === 0);
      if (missing && missing.action.type === "ask") return { ok: false, reason: `the customer did not disclose ${missing.action.fact} when asked` };
      return { ok: true, trace: run.trace };
    } finally {
      run.close();
    }
  }
}
