import type { EpisodeResult, Rate } from "../../schemas/evaluation-result.js";
import type { RandomStream } from "../../core/random.js";
import { rateOf } from "./rate.js";

/** Retrospective caps, as multiples of the golden trace's call count. */
export const CAPS = [1.2, 1.5, 2] as const;

/** Summary key of a cap: `1.2x`, `1.5x`, `2x`. */
export function capKey(cap: number): string {
  return `${cap}x`;
}

/**
 * Whether an episode is a strict success under a cap of `cap` × its golden call count: it
 * succeeded and used no more calls than the cap allows (an episode cut earlier would not have
 * reached its end, so it counts as a failure; the cap is rounded down to whole calls).
 */
export function succeedsUnderCap(r: EpisodeResult, cap: number): boolean {
  return r.strict_success && r.calls.total <= Math.floor(cap * r.golden_calls.total);
}

/** Strict success if every episode were cut at 1.2×, 1.5× and 2× its golden call count. */
export function capRates(results: readonly EpisodeResult[], stream: RandomStream): Record<string, Rate> {
  const out: Record<string, Rate> = {};
  for (const cap of CAPS) out[capKey(cap)] = rateOf(results, (r) => succeedsUnderCap(r, cap), stream.fork(capKey(cap)));
  return out;
}
