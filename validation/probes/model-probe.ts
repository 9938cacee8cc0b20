import type { Task, Trace } from "../../pipeline/schemas/index.js";
import { FoundryError } from "../../pipeline/core/errors.js";

/**
 * A model-driven probe, when a model is configured: an agent run on the task `k` times without the
 * reference plan and `k` times with it. The foundry supplies `run`; validation only counts.
 */
export interface ModelProbe {
  name: string;
  /** One episode of the model on the task; `withReferencePlan` shows it the reference plan. */
  run(task: Task, options: { withReferencePlan: boolean; attempt: number }): Promise<Trace>;
}

/** What the model probe's solve rates say about a task. */
export interface ModelCalibration {
  probe: string;
  k: number;
  /** Share of runs without the plan that succeeded. */
  without_plan: number;
  /** Share of runs with the plan that succeeded. */
  with_plan: number;
  /** `too_easy`: solved every time without help; `unsolvable`: never solved even with the plan; else `keep`. */
  verdict: "keep" | "too_easy" | "unsolvable";
  reason: string;
}

/**
 * Run a model probe k times with and without the reference plan and apply the 0%/100% filter: a task
 * solved in 100% of the unaided runs is too easy; one solved in 0% of the aided runs is broken or
 * unsolvable. `solved` judges a trace (strict success by the task's checks).
 */
export async function calibrateModelProbe(probe: ModelProbe, task: Task, k: number, solved: (trace: Trace) => boolean): Promise<ModelCalibration> {
  if (!Number.isInteger(k) || k < 1) throw new FoundryError("USAGE", `Expected \`k\` to be a whole number from 1 and up, got \`${k}\``, { path: "k" }, k);
  const rate = async (withReferencePlan: boolean) => {
    let ok = 0;
    for (let attempt = 1; attempt <= k; attempt++) if (solved(await probe.run(task, { withReferencePlan, attempt }))) ok++;
    return ok / k;
  };
  const without_plan = await rate(false);
  const with_plan = await rate(true);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const base = { probe: probe.name, k, without_plan, with_plan };
  if (without_plan === 1) return { ...base, verdict: "too_easy", reason: `${probe.name} solved all ${k} runs without the reference plan` };
  if (with_plan === 0) return { ...base, verdict: "unsolvable", reason: `${probe.name} solved none of ${k} runs even with the reference plan` };
  return { ...base, verdict: "keep", reason: `${probe.name} solved ${pct(without_plan)} without and ${pct(with_plan)} with the reference plan` };
}
