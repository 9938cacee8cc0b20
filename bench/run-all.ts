import { spawnSync } from "node:child_process";
import { benchmarkScripts } from "./select-benchmarks.js";

/**
 * `npm run bench`: every benchmark script in bench/ (selectBenchmarks: helper modules are not
 * benchmarks), one after the other (never in parallel: they measure this machine). Each prints its
 * own table and exits non-zero when it misses its target.
 */
const scripts = benchmarkScripts();
let failed = 0;
for (const s of scripts) {
  process.stdout.write(`\n=== bench/${s} ===\n`);
  const r = spawnSync(process.execPath, ["--import", "tsx", `bench/${s}`], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.stdout.write(`\n${scripts.length - failed} of ${scripts.length} benchmark(s) met their targets\n`);
process.exitCode = failed === 0 ? 0 : 1;
