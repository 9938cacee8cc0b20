import { describe, expect, it } from "vitest";
import { RandomStream } from "../../pipeline/core/random.js";

const draw = (r: RandomStream, n = 5): number[] => Array.from({ length: n }, () => r.int(0, 1000));

describe("RandomStream", () => {
  it("is reproducible for a seed", () => {
    expect(draw(new RandomStream(42))).toEqual(draw(new RandomStream(42)));
    expect(draw(new RandomStream(42))).not.toEqual(draw(new RandomStream(43)));
  });
  it("forks streams that depend only on the seed and the label, not on draw order", () => {
    const a = new RandomStream(7);
    draw(a, 100);
    const b = new RandomStream(7);
    expect(draw(a.fork("tasks/3"))).toEqual(draw(b.fork("tasks/3")));
    expect(draw(b.fork("tasks/3"))).not.toEqual(draw(b.fork("tasks/4")));
  });
  it("keeps draws in range and picks by weight", () => {
    const r = new RandomStream(1);
    for (let i = 0; i < 1000; i++) {
      const v = r.int(-3, 3);
      expect(v >= -3 && v <= 3).toBe(true);
    }
    const counts = { a: 0, b: 0 };
    for (let i = 0; i < 2000; i++) counts[r.pick(["a", "b"] as const, [9, 1])]++;
    expect(counts.a).toBeGreaterThan(1600);
    expect(counts.b).toBeGreaterThan(100);
  });
  it("shuffles into a permutation and samples without repetition", () => {
    const r = new RandomStream(5);
    expect(r.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(r.sample([1, 2, 3, 4, 5], 3)).size).toBe(3);
    expect(() => r.pick([])).toThrow(RangeError);
  });
});
