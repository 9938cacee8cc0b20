import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { childEnv } from "./measure.js";

/**
 * One child process of the real CLI, measured from outside: wall time, and its peak memory and CPU
 * time from GNU time. Node offers no rusage of a child (process.resourceUsage() is this process's
 * own), while GNU time reports what wait4 returns for the child: its max RSS and user + system time.
 */

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const TIME = "/usr/bin/time";

/** How peak memory was measured, for the BENCHMARKS.md sections. */
export const RSS_METHOD = existsSync(TIME) ? 'GNU time (`/usr/bin/time -f "%M %U %S"`) around the child: its max RSS and user + system CPU time, from wait4' : "not measured (no /usr/bin/time on this machine)";

export interface TimedRun {
  wall_ms: number;
  /** Max RSS of the child (KiB); null without /usr/bin/time. */
  max_rss_kib: number | null;
  /** User + system CPU time of the child (ms); null without /usr/bin/time. */
  cpu_ms: number | null;
  stdout: string;
}

/** `node <args>` in the repository root under GNU time (when present); a non-zero exit throws with the end of its stderr. */
export function timedNode(args: readonly string[], opts: { allowFailure?: boolean } = {}): TimedRun & { status: number | null; stderr: string } {
  const scratch = mkdtempSync(join(tmpdir(), "foundry-bench-time-"));
  const rssFile = join(scratch, "time.out");
  const withTime = existsSync(TIME);
  const [cmd, argv] = withTime ? [TIME, ["-f", "%M %U %S", "-o", rssFile, process.execPath, ...args]] : [process.execPath, [...args]];
  try {
    const t = performance.now();
    const r = spawnSync(cmd, argv, { cwd: ROOT, env: childEnv(), stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1024 * 1024 * 1024 });
    const wall = performance.now() - t;
    const stderr = r.stderr?.toString() ?? "";
    if (r.status !== 0 && !opts.allowFailure) throw new Error(`\`node ${args.join(" ")}\` exited ${r.status}: ${stderr.slice(-2000)}`);
    // GNU time prints "Command exited with non-zero status N" before its line when the child failed: the figures are on the last line.
    const [rss, user, sys] = withTime && existsSync(rssFile) ? (readFileSync(rssFile, "utf8").trim().split("\n").pop() as string).split(" ").map(Number) : [];
    return { wall_ms: wall, max_rss_kib: rss ?? null, cpu_ms: user !== undefined && sys !== undefined ? Math.round((user + sys) * 1000) : null, stdout: r.stdout?.toString() ?? "", status: r.status, stderr };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The machine a figure was measured on: Node version, CPU model × cores. */
export function machine(): { node: string; cpu: string } {
  return { node: process.version, cpu: `${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${availableParallelism()}` };
}

/** The 1, 5 and 15-minute load averages, two decimals. */
export function load(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}

export const mib = (kib: number | null): string => (kib === null ? "–" : `${Math.round(kib / 1024)} MiB`);
export const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
/** A figure's ratio to its limit, two decimals (below 1 is within the limit). */
export const toLimit = (x: number | null, limit: number): string => (x === null ? "–" : (x / limit).toFixed(2));
