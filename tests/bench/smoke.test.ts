import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { benchmarkScripts } from "../../bench/select-benchmarks.js";
import { PG_BIN } from "../helpers/postgres.js";

// Every benchmark script of bench/ run with `--smoke` (tiny sizes, targets not judged, BENCHMARKS.md
// never written: bench/lib/smoke.ts), so a script that no longer runs fails the suite instead of
// rotting until someone measures again. Three at a time: most of a smoke run is start-up and waiting
// for child processes, and on a shared two-core machine a third lane finishes sooner.
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BENCHMARKS = `${ROOT}BENCHMARKS.md`;

/** queue-throughput.ts needs a PostgreSQL server: like tests/backend, skipped without one except under CI, where a missing server fails. */
const needsPostgres = new Set(["queue-throughput.ts"]);
const scripts = benchmarkScripts().filter((s) => !needsPostgres.has(s) || PG_BIN !== null || process.env.CI === "true");

interface Ran {
  script: string;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(script: string): Promise<Ran> {
  const t0 = performance.now();
  // No FOUNDRY_* setting of the caller's shell changes what the scripts do.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("FOUNDRY_")));
  const child = spawn(process.execPath, ["--import", "tsx", `bench/${script}`, "--smoke"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ script, code, stdout, stderr, ms: performance.now() - t0 })));
}

/** The longest smoke runs start first, one in each lane, so the lanes end close together. */
const LONGEST = ["build.ts", "queue-throughput.ts", "evaluator.ts", "scale-release.ts", "scale-evaluate.ts", "draft-world.ts", "evaluator-latency.ts"];

async function runAll(names: readonly string[], parallel: number): Promise<Ran[]> {
  const rank = (s: string) => (LONGEST.includes(s) ? LONGEST.indexOf(s) : LONGEST.length);
  const queue = [...names].sort((a, b) => rank(a) - rank(b));
  const out: Ran[] = [];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) out.push(await run(s));
    }),
  );
  return out;
}

describe("benchmark scripts, smoke mode", () => {
  it(
    "every script of benchmarkScripts() exits 0 with --smoke, prints its table, and leaves BENCHMARKS.md alone",
    async () => {
      const before = readFileSync(BENCHMARKS, "utf8");
      const ran = await runAll(scripts, 3);
      console.log(ran.map((r) => `${r.script} ${(r.ms / 1000).toFixed(1)} s`).join(", "));
      for (const r of ran) {
        expect({ script: r.script, code: r.code, stderr: r.code === 0 ? "" : r.stderr.slice(-3000) }).toEqual({ script: r.script, code: 0, stderr: "" });
        // A table: cli-table3's borders, or the checks benchmark's one line per trace size.
        expect(r.stdout, r.script).toMatch(/┌|traces\/s/);
        expect(r.stdout, r.script).not.toMatch(/updated .*BENCHMARKS\.md/);
      }
      expect(ran.map((r) => r.script).sort()).toEqual(scripts);
      expect(readFileSync(BENCHMARKS, "utf8")).toBe(before);
    },
    180_000,
  );
});
