// Smoke mode of the benchmark scripts (`--smoke`): tiny sizes, so that tests/bench/smoke.test.ts can
// run every script in seconds and a script cannot rot unnoticed. A smoke run never writes
// BENCHMARKS.md (`--smoke --write` is refused) and does not judge targets: tiny sizes on a test
// machine say nothing about them, so it prints what it would have missed and exits 0.

/** Whether this process runs in smoke mode. */
export const SMOKE = process.argv.includes("--smoke");

if (SMOKE && process.argv.includes("--write")) {
  console.error("--smoke and --write cannot be combined: a smoke run never rewrites BENCHMARKS.md");
  process.exit(2);
}

/** `full` normally, `tiny` in smoke mode. */
export function size<T>(full: T, tiny: T): T {
  return SMOKE ? tiny : full;
}

/**
 * Report missed targets: each named on stderr as `target missed: …` (bench/run-all.ts collects those
 * lines) and exit code 1; in smoke mode only noted on stdout, exit code unchanged.
 */
export function reportMissed(missed: readonly string[]): void {
  if (SMOKE) {
    console.log(`smoke run: targets not judged${missed.length > 0 ? ` (at these tiny sizes: ${missed.join("; ")})` : ""}`);
    return;
  }
  for (const m of missed) console.error(`target missed: ${m}`);
  if (missed.length > 0) process.exitCode = 1;
}
