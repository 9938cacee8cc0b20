import type { EpisodeResult, Rate } from "../../schemas/evaluation-result.js";
import type { RandomStream } from "../../core/random.js";
import { bootstrapRate, type TaskCount } from "./bootstrap.js";
import { round6, taskKey } from "./episode-order.js";

/**
 * The rate of `hit` over `episodes` (completed ones only: errored episodes are never counted)
 * with its 95% bootstrap interval over tasks, seeded by `stream`.
 */
export function rateOf(episodes: readonly EpisodeResult[], hit: (r: EpisodeResult) => boolean, stream: RandomStream): Rate {
  const byTask = new Map<string, TaskCount>();
  let successes = 0;
  let n = 0;
  for (const r of episodes) {
    if (r.status !== "completed") continue;
    const key = taskKey(r);
    const c = byTask.get(key) ?? { successes: 0, n: 0 };
    const ok = hit(r);
    c.n++;
    n++;
    if (ok) {
      c.successes++;
      successes++;
    }
    byTask.set(key, c);
  }
  if (n === 0) return { rate: null, lo: null, hi: null, n: 0 };
  const keys = [...byTask.keys()].sort();
  const { lo, hi } = bootstrapRate(keys.map((k) => byTask.get(k) as TaskCount), stream);
  return { rate: round6(successes / n), lo, hi, n };
}
