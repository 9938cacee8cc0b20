import type { NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import { storedVerdict, workSimulatedTask } from "../agents/simulated/work-task.js";
import { simulatedDomain, simulatedModel, simulatedServices, episodeSetting } from "./simulated-domain.js";
import { updated } from "./simulated-record.js";

/**
 * simulated solve: the solver's model works each designed task with its solution plan under the
 * environment simulator, and the rubric verifier (env-sim's model, 3 independent judgments per
 * criterion, majority vote) judges the trajectory — the evaluator's one episode driver for such
 * tasks. Passed by majority on every criterion: verified; else failed, with the criteria not met.
 */
export async function simulatedSolve(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = simulatedServices(config, "simulated_solve");
  const domain = simulatedDomain(state);
  const solver = simulatedModel(svc, "solver");
  const sim = simulatedModel(svc, "env-sim");
  const todo = state.simRecords.filter((r) => r.status === "designed");
  const records = [];
  let done = 0;
  for (const r of state.simRecords) {
    if (r.status !== "designed") {
      records.push(r);
      continue;
    }
    const episode = await workSimulatedTask({ ...episodeSetting(state, domain, r.task, sim), agent: solver.model, traceRole: "golden", label: `solver-${r.repairs.length + 1}`, withPlan: true });
    const { trajectory, verdict } = storedVerdict(r.id, episode);
    const failed = verdict.criteria.filter((c) => !c.met).map((c) => `${c.id} (${c.votes} of ${c.total} judgments ${c.met ? "met" : "not met"})`);
    records.push(updated(r, { status: verdict.passed ? "verified" : "failed", reason: verdict.passed ? null : `rubric: the solver's trajectory with the plan does not meet ${failed.join(", ")}`, trajectory, verdict }));
    svc.progress.emit({ event: "item", domain: state.domain, stage: "simulated_solve", done: ++done, total: todo.length });
  }
  return { simRecords: records };
}
