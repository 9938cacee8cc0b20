import { describe, expect, it } from "vitest";
import { RandomStream } from "../../pipeline/core/random.js";
import { bootstrapMean, bootstrapRate } from "../../pipeline/evaluate/score/bootstrap.js";
import { passHatK, passHatKTask } from "../../pipeline/evaluate/score/pass-hat-k.js";
import { rateOf } from "../../pipeline/evaluate/score/rate.js";
import { robustness } from "../../pipeline/evaluate/score/completion.js";
import { succeedsUnderCap } from "../../pipeline/evaluate/score/caps.js";
import { calls, episode } from "./metrics-fixtures.js";

describe("pass^k (unbiased estimator)", () => {
  it("is C(c,k)/C(n,k) for one task", () => {
    // 2 successes of 4 runs: k=1 → 2/4, k=2 → 1/6, k=3 → 0 (C(2,3)=0), k=5 → not estimable.
    expect(passHatKTask(2, 4, 1)).toBe(0.5);
    expect(passHatKTask(2, 4, 2)).toBeCloseTo(1 / 6, 12);
    expect(passHatKTask(2, 4, 3)).toBe(0);
    expect(passHatKTask(4, 4, 4)).toBe(1);
    expect(passHatKTask(2, 4, 5)).toBeNull();
  });

  it("averages over tasks per condition, leaving out tasks with fewer than k completed runs", () => {
    const rs = [
      // t1: 3 of 3 at E0
      ...[0, 1, 2].map((run) => episode({ task: "t1", run })),
      // t2: 1 of 3 at E0
      ...[0, 1, 2].map((run) => episode({ task: "t2", run, success: run === 0 })),
      // t3: 1 success and 2 errored runs at E0: only k=1 is estimable for it
      episode({ task: "t3", run: 0 }),
      episode({ task: "t3", run: 1, status: "errored", success: false }),
      episode({ task: "t3", run: 2, status: "errored", success: false }),
      // E1: t1 fails every run
      ...[0, 1, 2].map((run) => episode({ task: "t1", run, condition: "E1", success: false })),
    ];
    const p = passHatK(rs, ["E0", "E1"], 3);
    // k=1: (1 + 1/3 + 1)/3; k=2: (1 + C(1,2)/C(3,2)=0)/2; k=3: (1 + 0)/2.
    expect(p.E0).toEqual({ "1": Math.round(((1 + 1 / 3 + 1) / 3) * 1e6) / 1e6, "2": 0.5, "3": 0.5 });
    expect(p.E1).toEqual({ "1": 0, "2": 0, "3": 0 });
  });
});

describe("bootstrap intervals over tasks", () => {
  it("resamples tasks, not episodes: two tasks of 10 runs, one always right, one always wrong, span 0..1", () => {
    const rs = [...Array(10).keys()].flatMap((run) => [episode({ task: "a", run }), episode({ task: "b", run, success: false })]);
    const r = rateOf(rs, (x) => x.strict_success, new RandomStream(1));
    // 20 independent episodes would give roughly [0.3, 0.7]; with the task as the unit the pooled
    // rate of a resample is 0, 0.5 or 1.
    expect(r).toEqual({ rate: 0.5, lo: 0, hi: 1, n: 20 });
  });

  it("is seeded: the same seed gives the same interval, and lo <= rate <= hi", () => {
    const counts = [...Array(12).keys()].map((i) => ({ successes: i % 3, n: 2 }));
    const a = bootstrapRate(counts, new RandomStream(42));
    const b = bootstrapRate(counts, new RandomStream(42));
    expect(a).toEqual(b);
    const rate = counts.reduce((s, c) => s + c.successes, 0) / counts.reduce((s, c) => s + c.n, 0);
    expect(a.lo!).toBeLessThan(rate);
    expect(a.hi!).toBeGreaterThan(rate);
    expect(bootstrapRate(counts, new RandomStream(43))).not.toEqual(a);
  });

  it("gives a single task its own rate as both bounds, and null bounds for none", () => {
    expect(bootstrapRate([{ successes: 1, n: 4 }], new RandomStream(1))).toEqual({ lo: 0.25, hi: 0.25 });
    expect(bootstrapRate([], new RandomStream(1))).toEqual({ lo: null, hi: null });
    expect(bootstrapMean([], new RandomStream(1))).toEqual({ lo: null, hi: null });
    expect(bootstrapMean([0.5, 0.5, 0.5], new RandomStream(1))).toEqual({ lo: 0.5, hi: 0.5 });
  });

  it("leaves errored episodes out of the rate and its n", () => {
    const rs = [episode({ task: "a" }), episode({ task: "b", success: false }), episode({ task: "c", status: "errored", success: false })];
    const r = rateOf(rs, (x) => x.strict_success, new RandomStream(1));
    expect(r.rate).toBe(0.5);
    expect(r.n).toBe(2);
    expect(rateOf([episode({ status: "errored" })], (x) => x.strict_success, new RandomStream(1))).toEqual({ rate: null, lo: null, hi: null, n: 0 });
  });
});

describe("robustness", () => {
  const rate = (r: number | null) => ({ rate: r, lo: r, hi: r, n: r === null ? 0 : 4 });
  it("is min(CR_E1, CR_E2, CR_E3) / CR_E0", () => {
    expect(robustness({ E0: rate(0.8), E1: rate(0.6), E2: rate(0.4), E3: rate(0.7) })).toBe(0.5);
  });
  it("is null when CR_E0 is 0, or a condition was not run or had no completed episode", () => {
    expect(robustness({ E0: rate(0), E1: rate(0), E2: rate(0), E3: rate(0) })).toBeNull();
    expect(robustness({ E0: rate(1), E1: rate(1), E2: rate(1) })).toBeNull();
    expect(robustness({ E0: rate(1), E1: rate(1), E2: rate(null), E3: rate(1) })).toBeNull();
  });
});

describe("retrospective caps", () => {
  it("keep a success only when the episode used no more calls than cap x golden calls (rounded down)", () => {
    const r = episode({ calls: calls({ operations: 4 }), golden_calls: calls({ operations: 3 }) });
    expect(succeedsUnderCap(r, 1.2)).toBe(false); // floor(3.6) = 3 < 4
    expect(succeedsUnderCap(r, 1.5)).toBe(true); // floor(4.5) = 4
    expect(succeedsUnderCap(episode({ success: false }), 2)).toBe(false);
    // the cap itself is allowed: 1.2 x 5 = 6 calls
    expect(succeedsUnderCap(episode({ calls: calls({ operations: 6 }), golden_calls: calls({ operations: 5 }) }), 1.2)).toBe(true);
  });
});
