/** What the benchmark scripts share for measuring: arguments, order statistics, interleaved timing, child environments. */

/** A whole-number command-line option `name N` (at least 1), or `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`Expected \`${name}\` to be a whole number from 1 and up, got \`${process.argv[i + 1]}\``);
  return v;
}

/** The median (the mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Nearest-rank quantile: the p90 of 15 runs is the 14th fastest. */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number;
}

/** Median of per-round ratios a[r] / b[r]. */
export function ratio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / (b[i] as number)));
}

/** The environment of child processes: no FOUNDRY_* setting of the caller's shell changes what they do. */
export function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("FOUNDRY_")));
}

/**
 * Time several functions in interleaved rounds (each round runs each function `iterations` times),
 * so a burst of load from other processes hits all of them alike, after `warmup(iterations)` warm-up
 * calls each. Returns each function's per-round mean times in ms: wall clock, and CPU time of this
 * process (user + system), which is what "on one core" means and what other jobs barely disturb.
 */
export function timeInterleaved<K extends string>(fns: Record<K, { fn: () => void; iterations: number }>, rounds: number, warmup: (iterations: number) => number): { wall: Record<K, number[]>; cpu: Record<K, number[]> } {
  const keys = Object.keys(fns) as K[];
  for (const k of keys) for (let i = 0; i < warmup(fns[k].iterations); i++) fns[k].fn();
  const wall = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const cpu = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    for (const k of keys) {
      const { fn, iterations } = fns[k];
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) fn();
      wall[k].push((performance.now() - t0) / iterations);
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / 1000 / iterations);
    }
  }
  return { wall, cpu };
}
