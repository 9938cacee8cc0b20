import type { CallCounts, EpisodeResult } from "../../schemas/evaluation-result.js";
import { round6 } from "./episode-order.js";

/** Kinds of calls compared with the golden trace, in report order. */
export const CALL_KINDS = ["document_reads", "distinct_documents", "queries", "discovery", "operations", "messages", "waits"] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** Agent calls of one kind against the golden trace's, summed over episodes. */
export interface KindEfficiency {
  agent: number;
  golden: number;
  /** agent ÷ golden; null when the golden traces have none of this kind. */
  ratio: number | null;
}

/** Calls that count against the agent whatever the golden trace did. */
export interface WastedCalls {
  count: number;
  /** Share of all agent calls; null when there were no calls. */
  share: number | null;
}

/** The `efficiency` block of summary.json. */
export interface Efficiency {
  episodes: number;
  total: KindEfficiency;
  /** Mean over episodes of the per-episode ratio agent calls ÷ golden calls (episodes whose golden trace has calls). */
  mean_episode_ratio: number | null;
  by_kind: Record<CallKind, KindEfficiency>;
  repeats: WastedCalls;
  rejected: WastedCalls;
  errored: WastedCalls;
  by_condition: Record<string, { episodes: number; total: KindEfficiency; mean_episode_ratio: number | null }>;
}

const ratio = (a: number, g: number) => (g === 0 ? null : round6(a / g));

function kind(episodes: readonly EpisodeResult[], pick: (c: CallCounts) => number): KindEfficiency {
  const agent = episodes.reduce((s, r) => s + pick(r.calls), 0);
  const golden = episodes.reduce((s, r) => s + pick(r.golden_calls), 0);
  return { agent, golden, ratio: ratio(agent, golden) };
}

function meanRatio(episodes: readonly EpisodeResult[]): number | null {
  const rs = episodes.filter((r) => r.golden_calls.total > 0).map((r) => r.calls.total / r.golden_calls.total);
  return rs.length === 0 ? null : round6(rs.reduce((a, b) => a + b, 0) / rs.length);
}

function wasted(episodes: readonly EpisodeResult[], pick: (c: CallCounts) => number): WastedCalls {
  const count = episodes.reduce((s, r) => s + pick(r.calls), 0);
  const total = episodes.reduce((s, r) => s + r.calls.total, 0);
  return { count, share: total === 0 ? null : round6(count / total) };
}

/** Efficiency against the golden traces over completed episodes, overall, by kind and by condition. */
export function efficiency(results: readonly EpisodeResult[]): Efficiency {
  const done = results.filter((r) => r.status === "completed");
  const byKind = {} as Record<CallKind, KindEfficiency>;
  for (const k of CALL_KINDS) byKind[k] = kind(done, (c) => c[k]);
  const byCondition: Efficiency["by_condition"] = {};
  for (const c of [...new Set(done.map((r) => r.condition))].sort()) {
    const eps = done.filter((r) => r.condition === c);
    byCondition[c] = { episodes: eps.length, total: kind(eps, (x) => x.total), mean_episode_ratio: meanRatio(eps) };
  }
  return {
    episodes: done.length,
    total: kind(done, (c) => c.total),
    mean_episode_ratio: meanRatio(done),
    by_kind: byKind,
    repeats: wasted(done, (c) => c.repeats),
    rejected: wasted(done, (c) => c.rejected),
    errored: wasted(done, (c) => c.errored),
    by_condition: byCondition,
  };
}
