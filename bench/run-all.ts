import { spawn } from "node:child_process";
import { benchmarkScripts } from "./select-benchmarks.js";

/**
 * `npm run bench`: every benchmark script in bench/ (selectBenchmarks: helper modules are not
 * benchmarks), one after the other (never in parallel: they measure this machine). Each prints its
 * own table and exits non-zero when it misses its target, naming it on stderr as `target missed: …`
 * (bench/lib/smoke.ts); at the end the runner names every missed target, script by script.
 * `npm run bench -- --smoke` runs each at tiny sizes (targets not judged, BENCHMARKS.md untouched);
 * `npm run bench -- startup.ts build.ts` runs only the benchmarks named.
 */
const argv = process.argv.slice(2);
const passed = argv.filter((a) => a === "--smoke");
const named = argv.filter((a) => !a.startsWith("--"));
const unknown = named.filter((n) => !benchmarkScripts().includes(n));
if (unknown.length > 0) {
  console.error(`not a benchmark script of bench/: ${unknown.join(", ")} (benchmarks: ${benchmarkScripts().join(", ")})`);
  process.exit(2);
}
const scripts = named.length > 0 ? named : benchmarkScripts();
const failures: Array<{ script: string; code: number | null; missed: string[] }> = [];
for (const s of scripts) {
  process.stdout.write(`\n=== bench/${s} ===\n`);
  const child = spawn(process.execPath, ["--import", "tsx", `bench/${s}`, ...passed], { stdio: ["inherit", "inherit", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
    process.stderr.write(c);
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  if (code !== 0) {
    const missed = stderr
      .split("\n")
      .filter((l) => l.startsWith("target missed: "))
      .map((l) => l.slice("target missed: ".length));
    failures.push({ script: s, code, missed });
  }
}
process.stdout.write(`\n${scripts.length - failures.length} of ${scripts.length} benchmark(s) met their targets\n`);
for (const f of failures) {
  if (f.missed.length === 0) process.stdout.write(`bench/${f.script}: exited ${f.code} without naming a missed target (an error: see its output above)\n`);
  for (const m of f.missed) process.stdout.write(`bench/${f.script}: target missed: ${m}\n`);
}
process.exitCode = failures.length === 0 ? 0 : 1;
