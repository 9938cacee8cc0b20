import type { Condition, EpisodeResult, Rate } from "../../schemas/evaluation-result.js";
import type { RandomStream } from "../../core/random.js";
import { rateOf } from "./rate.js";
import { round6 } from "./episode-order.js";

/** Completion rate (strict success) of each condition that was run. */
export function completionRates(results: readonly EpisodeResult[], conditions: readonly Condition[], stream: RandomStream): Record<string, Rate> {
  const out: Record<string, Rate> = {};
  for (const c of conditions) out[c] = rateOf(results.filter((r) => r.condition === c), (r) => r.strict_success, stream.fork(c));
  return out;
}

/**
 * Robustness = min(CR_E1, CR_E2, CR_E3) / CR_E0. Null when E0 or a fault condition was not run
 * (or had no completed episode), or when CR_E0 is 0 (the ratio says nothing then).
 */
export function robustness(completion: Readonly<Record<string, Rate>>): number | null {
  const e0 = completion.E0?.rate;
  if (e0 === null || e0 === undefined || e0 === 0) return null;
  const faulted = (["E1", "E2", "E3"] as const).map((c) => completion[c]?.rate);
  if (faulted.some((r) => r === null || r === undefined)) return null;
  return round6(Math.min(...(faulted as number[])) / e0);
}
