import type { Task } from "../../schemas/index.js";
import { calibrationRuns as runs } from "./runs.js";
import type { Calibrator, DomainContext } from "../types.js";
import type { Calibration } from "../../../validation/validate-task.js";
import { judge } from "../../../validation/judge.js";
import { modelAgentProbe, modelSolveRate, solveRateVerdict, type ProbeModel } from "../../../validation/probes/model-probe.js";

export interface LlmCalibratorOptions {
  /** The calibrator's chat model; a runtime model samples each run apart (`forItem` with its own variant). */
  model: ProbeModel;
  /** `provider:model`, named in drop reasons and recorded with the solve rate. */
  name: string;
}

/**
 * The calibrator's llm strategy: the model agent works each task `calibration.runs` times (domain
 * card, default 4) through the one agent loop, each run a fresh episode and a fresh sample. A task
 * solved in 0% or 100% of the runs is dropped, naming the rate; the rate labels the rest.
 */
export class LlmCalibrator implements Calibrator {
  readonly #opts: LlmCalibratorOptions;
  constructor(opts: LlmCalibratorOptions) {
    this.#opts = opts;
  }

  async calibrate(ctx: DomainContext, task: Task): Promise<Calibration> {
    const probe = modelAgentProbe(this.#opts.name, ctx, this.#opts.model);
    const s = await modelSolveRate(probe, task, runs(ctx), (trace) => judge(ctx, task, trace).success.strict);
    const solve_rate = { model: this.#opts.name, runs: s.runs, solved: s.solved, rate: s.rate };
    // Probe name → solved, one entry per run (the run's episode label).
    const probes = Object.fromEntries(s.results.map((ok, i) => [`${this.#opts.name}/unaided-${i + 1}`, ok]));
    const v = solveRateVerdict(s);
    if (v.verdict === "not_solvable") return { verdict: "dropped", reason: `solvability: ${v.reason}`, probes, solve_rate };
    if (v.verdict === "too_easy") return { verdict: "dropped", reason: `difficulty: ${v.reason}`, probes, solve_rate };
    return { verdict: "released", difficulty: v.difficulty, probes, detail: v.reason, solvability: `the calibrator model solves the task in ${s.solved} of ${s.runs} runs`, solve_rate };
  }

  settings(ctx: DomainContext): unknown {
    return { runs: runs(ctx) };
  }
}
