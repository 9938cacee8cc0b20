import type { NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import { solveRateVerdict } from "../../validation/probes/model-probe.js";
import { workSimulatedTask } from "../agents/simulated/work-task.js";
import { simulatedDomain, simulatedModel, simulatedServices, episodeSetting } from "./simulated-domain.js";
import { updated } from "./simulated-record.js";
import { DEFAULT_CALIBRATION_RUNS } from "../schemas/index.js";

/**
 * simulated calibrate: the calibrator's model agent works each verified task `calibration.runs`
 * times without the solution plan (each run its own sample, under the simulator, judged by the
 * rubric verifier); validation's solve-rate verdict drops a task solved in 0% or 100% of the runs
 * and labels the rest.
 */
export async function simulatedCalibrate(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = simulatedServices(config, "simulated_calibrate");
  const domain = simulatedDomain(state);
  const calibrator = simulatedModel(svc, "calibrator");
  const sim = simulatedModel(svc, "env-sim");
  const runs = domain.card.calibration?.runs ?? DEFAULT_CALIBRATION_RUNS;
  const records = [];
  for (const r of state.simRecords) {
    if (r.status !== "verified") {
      records.push(r);
      continue;
    }
    const results: boolean[] = [];
    for (let run = 1; run <= runs; run++) {
      const episode = await workSimulatedTask({ ...episodeSetting(state, domain, r.task, sim), agent: calibrator.model, traceRole: "probe", label: `calibrator-${run}`, withPlan: false });
      results.push(episode.passed);
    }
    const solved = results.filter(Boolean).length;
    const verdict = solveRateVerdict({ probe: calibrator.spec, runs, solved, rate: solved / runs, results });
    const solve_rate = { model: calibrator.spec, runs, solved, rate: solved / runs };
    records.push(verdict.verdict === "keep" ? updated(r, { status: "released", task: { ...r.task, difficulty: verdict.difficulty }, solve_rate }) : updated(r, { status: "dropped", reason: verdict.reason, solve_rate }));
  }
  return { simRecords: records };
}
