import { describe, expect, it } from "vitest";
import { summarize } from "../../pipeline/evaluate/score/summarize.js";
import { summaryBytes } from "../../pipeline/evaluate/score/write-summary.js";
import { EvaluationResult } from "../../pipeline/schemas/evaluation-result.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { calls, episode, RELEASE, settings } from "./metrics-fixtures.js";

/** Four tasks x four conditions: t1..t4 succeed at E0; under faults only t1 and t2 (E1), t1 (E2), t1..t3 (E3). */
function grid() {
  const wins: Record<string, string[]> = { E0: ["t1", "t2", "t3", "t4"], E1: ["t1", "t2"], E2: ["t1"], E3: ["t1", "t2", "t3"] };
  return (["E0", "E1", "E2", "E3"] as const).flatMap((condition) =>
    ["t1", "t2", "t3", "t4"].map((task) => episode({ task, condition, success: wins[condition]!.includes(task), difficulty: task === "t4" ? null : "hard" })),
  );
}

describe("summarize", () => {
  it("gives rates per condition, completion, robustness, caps and slices over completed episodes", () => {
    const s = summarize(grid(), settings(), RELEASE);
    expect(EvaluationResult.safeParse(s).success).toBe(true);
    expect(s.episodes).toEqual({ total: 16, completed: 16, errored: 0 });
    expect(s.by_condition.E0!.strict_success.rate).toBe(1);
    expect(s.by_condition.E1!.strict_success.rate).toBe(0.5);
    expect(s.by_condition.E2!.strict_success.rate).toBe(0.25);
    expect(s.completion.E3!.rate).toBe(0.75);
    expect(s.robustness).toBe(0.25);
    expect(s.overall.strict_success).toMatchObject({ rate: 10 / 16, n: 16 });
    expect(Object.keys(s.by_difficulty)).toEqual(["hard", "unlabelled"]);
    expect(Object.keys(s.by_task)).toEqual(["fx/t1", "fx/t2", "fx/t3", "fx/t4"]);
    expect(s.by_task["fx/t1"]!.strict_success).toEqual({ rate: 1, lo: 1, hi: 1, n: 4 });
    expect(s.pass_hat_k).toEqual({ E0: { "1": 1 }, E1: { "1": 0.5 }, E2: { "1": 0.25 }, E3: { "1": 0.75 } });
    // Every episode uses exactly its golden calls, so every cap keeps every success.
    expect(s.caps["1.2x"]!.rate).toBe(10 / 16);
    expect(s.efficiency).toMatchObject({ total: { agent: 48, golden: 48, ratio: 1 }, mean_episode_ratio: 1 });
  });

  it("counts errored episodes apart, lists each with its reason, and leaves them out of every rate", () => {
    const rs = [
      episode({ task: "t1" }),
      episode({ task: "t2", success: false }),
      episode({ task: "t3", status: "errored", end: "errored", success: false, error: { class: "rate_limit", message: "429 after 4 attempts" } }),
    ];
    const s = summarize(rs, settings({ conditions: ["E0"] }), RELEASE);
    expect(s.episodes).toEqual({ total: 3, completed: 2, errored: 1 });
    expect(s.errored).toEqual([{ task: "t3", condition: "E0", run: 0, class: "rate_limit", message: "429 after 4 attempts" }]);
    expect(s.overall.strict_success.rate).toBe(0.5);
    expect(s.overall.strict_success.n).toBe(2);
    expect(s.overall.goal.n).toBe(2);
    // The errored task still shows as a slice, with nothing counted.
    expect(s.by_task["fx/t3"]).toMatchObject({ episodes: 0, strict_success: { rate: null, n: 0 } });
    expect(s.efficiency).toMatchObject({ episodes: 2 });
    expect(s.robustness).toBeNull();
  });

  it("gives strict success over unflagged episodes, and the flags by kind", () => {
    const flag = { kind: "unprompted_disclosure" as const, event: 4, detail: "disclosed fact invoice_no unasked" };
    const rs = [episode({ task: "t1", user_sim_flags: [flag, { ...flag, kind: "unrequested_action" }] }), episode({ task: "t2", success: false }), episode({ task: "t3" })];
    const s = summarize(rs, settings({ conditions: ["E0"] }), RELEASE);
    expect(s.user_sim_audit.flagged_episodes).toBe(1);
    expect(s.user_sim_audit.flags).toEqual({ contradicted_fact: 0, unagreed_approval: 0, unprompted_disclosure: 1, unrequested_action: 1 });
    expect(s.overall.strict_success.rate).toBe(0.666667);
    expect(s.user_sim_audit.strict_success_unflagged).toMatchObject({ rate: 0.5, n: 2 });
  });

  it("splits efficiency by kind, with repeats and rejected and errored calls as shares", () => {
    const rs = [
      episode({ task: "t1", calls: calls({ document_reads: 4, distinct_documents: 2, queries: 2, operations: 3, repeats: 2, rejected: 1, errored: 1 }), golden_calls: calls({ document_reads: 1, distinct_documents: 1, operations: 2 }) }),
      episode({ task: "t2", calls: calls({ operations: 2 }), golden_calls: calls({ operations: 2, waits: 1 }) }),
    ];
    const e = summarize(rs, settings({ conditions: ["E0"] }), RELEASE).efficiency as any;
    expect(e.total).toEqual({ agent: 11, golden: 6, ratio: 1.833333 });
    expect(e.mean_episode_ratio).toBe(Math.round(((9 / 3 + 2 / 3) / 2) * 1e6) / 1e6);
    expect(e.by_kind.document_reads).toEqual({ agent: 4, golden: 1, ratio: 4 });
    expect(e.by_kind.queries).toEqual({ agent: 2, golden: 0, ratio: null });
    expect(e.by_kind.waits).toEqual({ agent: 0, golden: 1, ratio: 0 });
    expect(e.repeats).toEqual({ count: 2, share: 0.181818 });
    expect(e.rejected).toEqual({ count: 1, share: 0.090909 });
  });

  it("sums usage per role; a role's cost is null when one episode has no price", () => {
    const rs = [
      episode({ task: "t1", usage: { agent: { calls: 2, input_tokens: 100, output_tokens: 10, cost_usd: 0.5 }, "user-sim": { calls: 1, input_tokens: 5, output_tokens: 5, cost_usd: 0.25 } } }),
      episode({ task: "t2", usage: { agent: { calls: 3, input_tokens: 50, output_tokens: 20, cost_usd: null }, "user-sim": { calls: 1, input_tokens: 5, output_tokens: 5, cost_usd: 0.25 } } }),
    ];
    const s = summarize(rs, settings({ conditions: ["E0"] }), RELEASE);
    expect(s.usage).toEqual({ agent: { calls: 5, input_tokens: 150, output_tokens: 30, cost_usd: null }, "user-sim": { calls: 2, input_tokens: 10, output_tokens: 10, cost_usd: 0.5 } });
  });

  it("does not depend on the order the episodes finished in (the same bytes)", () => {
    const failed = (task: string) => episode({ task, status: "errored", end: "errored", success: false, error: { class: "timeout", message: `${task} timed out` } });
    const rs = [...grid(), failed("t5"), failed("t6"), failed("t7")];
    const expected = summaryBytes(summarize(rs, settings(), RELEASE));
    for (const other of [new RandomStream(3).shuffle(rs), [...rs].reverse()]) {
      expect(other).not.toEqual(rs);
      expect(summaryBytes(summarize(other, settings(), RELEASE))).toBe(expected);
    }
  });

  it("refuses a seed that is not an integer, naming the setting", () => {
    expect(() => summarize([], settings({ seed: 1.5 }), RELEASE)).toThrow(expect.objectContaining({ code: "SUMMARY_SETTINGS", location: { path: "settings.seed" }, value: 1.5 }));
  });
});
