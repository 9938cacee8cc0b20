import { createHash } from "node:crypto";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";

type Generator = ReturnType<typeof xoroshiro128plus>;

/** 32-bit seed derived from a parent seed and a label; independent of the order streams are made in. */
function deriveSeed(seed: number, label: string): number {
  return createHash("sha256").update(`${seed}\u0000${label}`).digest().readInt32LE(0);
}

/**
 * A seeded random stream. `fork(label)` gives a child stream that depends only on this stream's
 * seed and the label, so adding a task or a stage never shifts the numbers of another one.
 */
export class RandomStream {
  readonly seed: number;
  readonly #gen: Generator;

  constructor(seed: number) {
    if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
    this.seed = seed;
    this.#gen = xoroshiro128plus(seed);
  }

  /** Child stream named `label` (e.g. `tasks/3`, `faults/episode-2`). */
  fork(label: string): RandomStream {
    return new RandomStream(deriveSeed(this.seed, label));
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    if (max < min) throw new RangeError(`int(${min}, ${max}): max is below min`);
    return uniformInt(this.#gen, min, max);
  }

  /** Float in [0, 1). */
  float(): number {
    return uniformInt(this.#gen, 0, 2 ** 30 - 1) / 2 ** 30;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element of a non-empty array, optionally weighted. */
  pick<T>(items: readonly T[], weights?: readonly number[]): T {
    if (items.length === 0) throw new RangeError("pick() from an empty list");
    if (!weights) return items[this.int(0, items.length - 1)] as T;
    if (weights.length !== items.length) throw new RangeError("pick(): weights and items differ in length");
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.float() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i] as number;
      if (r < 0) return items[i] as T;
    }
    return items[items.length - 1] as T;
  }

  /** A new array in shuffled order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** `n` distinct elements, in draw order. */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, Math.min(n, items.length));
  }
}
