import type { EpisodeResult } from "../../schemas/evaluation-result.js";
import { RandomStream } from "../../core/random.js";
import { FoundryError } from "../../core/errors.js";
import { join } from "node:path";
import { readResults } from "../results-log.js";
import { SETTINGS_FILE } from "../settings.js";
import { readSettings } from "./read-settings.js";
import { bootstrapMean } from "./bootstrap.js";
import { round6, taskKey } from "./episode-order.js";

/** A task whose strict-success rate differs between A and B. */
export interface Flip {
  task: string;
  a: number;
  b: number;
  /** gained: B succeeds more often than A; lost: less often. */
  direction: "gained" | "lost";
}

/** The paired comparison over one scope (every shared condition, or one condition). */
export interface PairedScope {
  /** Tasks with completed episodes in this scope in both folders. */
  tasks: number;
  /** Mean over paired tasks of each side's strict-success rate. */
  a: number | null;
  b: number | null;
  /** Mean per-task difference B − A with its 95% bootstrap interval over tasks. */
  difference: { mean: number | null; lo: number | null; hi: number | null };
  flips: Flip[];
  /** Tasks with completed episodes on one side only (left out of the pairing). */
  unpaired: string[];
}

/** What `synth compare A B` prints. */
export interface Comparison {
  release: { name: string; version: string; root_hash: string };
  a: { dir: string; agent: string; user_sim: string };
  b: { dir: string; agent: string; user_sim: string };
  seed: number;
  /** `all` (every condition both ran) and each shared condition. */
  scopes: Record<string, PairedScope>;
}

/** Per task: strict-success rate over completed episodes. */
function ratesByTask(results: readonly EpisodeResult[]): Map<string, number> {
  const counts = new Map<string, { s: number; n: number }>();
  for (const r of results) {
    if (r.status !== "completed") continue;
    const c = counts.get(taskKey(r)) ?? { s: 0, n: 0 };
    c.n++;
    if (r.strict_success) c.s++;
    counts.set(taskKey(r), c);
  }
  return new Map([...counts].map(([k, c]) => [k, c.s / c.n]));
}

function pairScope(a: readonly EpisodeResult[], b: readonly EpisodeResult[], stream: RandomStream): PairedScope {
  const ra = ratesByTask(a);
  const rb = ratesByTask(b);
  const keys = [...new Set([...ra.keys(), ...rb.keys()])].sort();
  const paired = keys.filter((k) => ra.has(k) && rb.has(k));
  const diffs = paired.map((k) => (rb.get(k) as number) - (ra.get(k) as number));
  const mean = (xs: number[]) => (xs.length === 0 ? null : round6(xs.reduce((s, x) => s + x, 0) / xs.length));
  return {
    tasks: paired.length,
    a: mean(paired.map((k) => ra.get(k) as number)),
    b: mean(paired.map((k) => rb.get(k) as number)),
    difference: { mean: mean(diffs), ...bootstrapMean(diffs, stream) },
    flips: paired.flatMap((k): Flip[] => {
      const x = round6(ra.get(k) as number);
      const y = round6(rb.get(k) as number);
      return x === y ? [] : [{ task: k, a: x, b: y, direction: y > x ? "gained" : "lost" }];
    }),
    unpaired: keys.filter((k) => !(ra.has(k) && rb.has(k))),
  };
}

/**
 * `synth compare A B`: the paired per-task difference in strict success (B − A) with its seeded
 * bootstrap interval, over every condition both folders ran and per condition, and the tasks that
 * flip. Both must be evaluations of the same release (same root hash): tasks are paired by id;
 * and of the same environment mode (executable, simulated, hybrid).
 */
export function compareEvaluations(dirA: string, dirB: string, seed = 0): Comparison {
  const sa = readSettings(dirA);
  const sb = readSettings(dirB);
  if (sa.release.root_hash !== sb.release.root_hash) {
    throw new FoundryError(
      "COMPARE_RELEASE_MISMATCH",
      `the evaluations ran on different releases (${sa.release.name}@${sa.release.version} ${sa.release.root_hash} and ${sb.release.name}@${sb.release.version} ${sb.release.root_hash}); tasks can only be paired on one release`,
      { file: join(dirB, SETTINGS_FILE), path: "release.root_hash" },
      sb.release.root_hash,
    );
  }
  if (sa.env !== sb.env) {
    throw new FoundryError(
      "COMPARE_MODE_MISMATCH",
      `the evaluations ran in different environment modes (${sa.env} and ${sb.env}); a simulated environment's rubric verdicts and the executable checks are not the same measurement, so they are never paired`,
      { file: join(dirB, SETTINGS_FILE), path: "env" },
      sb.env,
    );
  }
  const a = readResults(dirA);
  const b = readResults(dirB);
  const shared = sa.conditions.filter((c) => sb.conditions.includes(c));
  const root = new RandomStream(seed).fork("compare");
  const scopes: Record<string, PairedScope> = {
    all: pairScope(a.filter((r) => shared.includes(r.condition)), b.filter((r) => shared.includes(r.condition)), root.fork("all")),
  };
  for (const c of shared) scopes[c] = pairScope(a.filter((r) => r.condition === c), b.filter((r) => r.condition === c), root.fork(c));
  return {
    release: sa.release,
    a: { dir: dirA, agent: sa.agent, user_sim: sa.user_sim },
    b: { dir: dirB, agent: sb.agent, user_sim: sb.user_sim },
    seed,
    scopes,
  };
}

/** The comparison as text: one block per scope, flips listed. */
export function renderComparison(c: Comparison): string {
  const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(1)}%`);
  const pp = (x: number | null) => (x === null ? "n/a" : `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} pp`);
  const lines = [`A: ${c.a.agent} (${c.a.dir})`, `B: ${c.b.agent} (${c.b.dir})`, `release ${c.release.name}@${c.release.version} (${c.release.root_hash})`, ""];
  for (const [scope, s] of Object.entries(c.scopes)) {
    lines.push(`${scope}: ${s.tasks} paired tasks, strict success A ${pct(s.a)}, B ${pct(s.b)}, B − A ${pp(s.difference.mean)} [95% ${pp(s.difference.lo)}, ${pp(s.difference.hi)}]`);
    for (const f of s.flips) lines.push(`  ${f.direction === "gained" ? "+" : "-"} ${f.task}: ${pct(f.a)} → ${pct(f.b)}`);
    if (s.unpaired.length > 0) lines.push(`  unpaired (one side only): ${s.unpaired.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}
