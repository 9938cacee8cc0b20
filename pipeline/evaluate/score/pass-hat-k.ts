import type { Condition, EpisodeResult } from "../../schemas/evaluation-result.js";
import { round6, taskKey } from "./episode-order.js";

/** Binomial coefficient C(n, k) as a float (n is a handful of runs, so it is exact). */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/**
 * Unbiased pass^k of one task: the chance that k runs drawn without replacement from its n runs
 * all succeed, C(c,k)/C(n,k) for c successes. Null when fewer than k runs were completed.
 */
export function passHatKTask(successes: number, n: number, k: number): number | null {
  if (k < 1 || n < k) return null;
  return choose(successes, k) / choose(n, k);
}

/**
 * pass^k for k = 1…K per condition: the mean over tasks (those with at least k completed runs)
 * of the unbiased per-task estimate; null for a k no task reaches.
 */
export function passHatK(results: readonly EpisodeResult[], conditions: readonly Condition[], runs: number): Record<string, Record<string, number | null>> {
  const out: Record<string, Record<string, number | null>> = {};
  for (const condition of conditions) {
    const perTask = new Map<string, { c: number; n: number }>();
    for (const r of results) {
      if (r.condition !== condition || r.status !== "completed") continue;
      const t = perTask.get(taskKey(r)) ?? { c: 0, n: 0 };
      t.n++;
      if (r.strict_success) t.c++;
      perTask.set(taskKey(r), t);
    }
    const row: Record<string, number | null> = {};
    for (let k = 1; k <= runs; k++) {
      const values = [...perTask.values()].map((t) => passHatKTask(t.c, t.n, k)).filter((v): v is number => v !== null);
      row[String(k)] = values.length === 0 ? null : round6(values.reduce((a, b) => a + b, 0) / values.length);
    }
    out[condition] = row;
  }
  return out;
}
