import { RandomStream } from "../../core/random.js";
import { round6 } from "./episode-order.js";

/** Resamples of every bootstrap interval. */
export const BOOTSTRAP_RESAMPLES = 1000;

/** One task's contribution to a pooled rate: successes out of counted episodes. */
export interface TaskCount {
  successes: number;
  n: number;
}

/** The 2.5% and 97.5% percentiles of sorted resample values. */
function percentiles(values: number[]): { lo: number; hi: number } {
  values.sort((a, b) => a - b);
  const b = values.length;
  return { lo: round6(values[Math.floor(0.025 * b)] as number), hi: round6(values[Math.ceil(0.975 * b) - 1] as number) };
}

/**
 * 95% interval of a pooled rate (Σ successes / Σ episodes) by resampling tasks with replacement:
 * runs and conditions of one task are not independent, so the task is the unit. `stream` seeds
 * it; null bounds when there is no task. One task gives its own rate as both bounds.
 */
export function bootstrapRate(tasks: readonly TaskCount[], stream: RandomStream, resamples = BOOTSTRAP_RESAMPLES): { lo: number | null; hi: number | null } {
  const t = tasks.length;
  if (t === 0) return { lo: null, hi: null };
  if (t === 1) {
    const only = tasks[0] as TaskCount;
    const r = round6(only.successes / only.n);
    return { lo: r, hi: r };
  }
  const values: number[] = [];
  for (let i = 0; i < resamples; i++) {
    let s = 0;
    let n = 0;
    for (let j = 0; j < t; j++) {
      const pick = tasks[stream.int(0, t - 1)] as TaskCount;
      s += pick.successes;
      n += pick.n;
    }
    values.push(s / n);
  }
  return percentiles(values);
}

/**
 * 95% interval of the mean of per-task values (e.g. paired differences) by resampling tasks with
 * replacement; null bounds when there is no task.
 */
export function bootstrapMean(values: readonly number[], stream: RandomStream, resamples = BOOTSTRAP_RESAMPLES): { lo: number | null; hi: number | null } {
  const t = values.length;
  if (t === 0) return { lo: null, hi: null };
  if (t === 1) return { lo: round6(values[0] as number), hi: round6(values[0] as number) };
  const means: number[] = [];
  for (let i = 0; i < resamples; i++) {
    let s = 0;
    for (let j = 0; j < t; j++) s += values[stream.int(0, t - 1)] as number;
    means.push(s / t);
  }
  return percentiles(means);
}
