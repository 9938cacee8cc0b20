import type { CallCounts, EpisodeResult } from "../../pipeline/schemas/evaluation-result.js";
import type { SummarySettings } from "../../pipeline/evaluate/score/summarize.js";

/** Call counts with every kind 0 except those given; `total` defaults to the sum of the kinds. */
export function calls(c: Partial<CallCounts> = {}): CallCounts {
  const base = { document_reads: 0, distinct_documents: 0, queries: 0, discovery: 0, operations: 0, messages: 0, waits: 0, repeats: 0, rejected: 0, errored: 0, ...c };
  return { total: c.total ?? base.document_reads + base.queries + base.discovery + base.operations + base.messages + base.waits, ...base };
}

/** A hand-made episode result: a strict success of task fx/t1 at E0, run 0, unless overridden. */
export function episode(o: Partial<EpisodeResult> & { success?: boolean } = {}): EpisodeResult {
  const { success = true, ...rest } = o;
  const domain = rest.domain ?? "fx";
  const task = rest.task ?? "t1";
  const condition = rest.condition ?? "E0";
  const run = rest.run ?? 0;
  return {
    task,
    domain,
    industry: "Business & Enterprise",
    difficulty: "easy",
    agent: "oracle",
    user_sim: "deterministic",
    condition,
    run,
    seed: 1,
    status: "completed",
    error: null,
    end: "finished",
    goal: success,
    process: success,
    protection: success,
    strict_success: success,
    goal_reached_but_invalid: false,
    checks: [{ check: "g1", group: "goal", kind: "row_equals", passed: success, reason: success ? "row matches" : "row differs at event 3", event: success ? null : 3 }],
    calls: calls({ operations: 2, document_reads: 1, distinct_documents: 1 }),
    golden_calls: calls({ operations: 2, document_reads: 1, distinct_documents: 1 }),
    faults_injected: 0,
    turns: 3,
    usage: {},
    user_sim_flags: [],
    trace_file: `traces/${domain}/${task}/${condition}-${run}.json`,
    trace_sha256: "0".repeat(64),
    ...rest,
  };
}

/** Settings for summarize: agent oracle, seed 7, the given runs and conditions. */
export function settings(o: Partial<SummarySettings> = {}): SummarySettings {
  return { agent: "oracle", user_sim: "deterministic", seed: 7, runs: 1, conditions: ["E0", "E1", "E2", "E3"], ...o };
}

export const RELEASE = { name: "sample", version: "1.0.0", root_hash: "a".repeat(64) };
