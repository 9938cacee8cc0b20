import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { replicateDomain } from "./replicate-tasks.js";
import { SCALE_DOMAIN, SCALE_DOMAIN_ID, SMOKE_DOMAIN, buildScaleDomain, type ScaleBuild } from "./scale-domain.js";
import { timedNode, type TimedRun } from "./timed-child.js";
import type { SyntheticOptions } from "./synthetic-domain.js";

/**
 * The domain the large releases are grown from: the full-size synthetic domain (800 documents, 600
 * operations) with 10 task slots instead of 50, so that each scale benchmark's own build stays near
 * two minutes (calibration of a slot is most of a build); its released tasks are then copied under
 * new ids (replicate-tasks.ts). Smoke: the smoke-size domain.
 */
function releaseDomainOptions(smoke: boolean): SyntheticOptions {
  return smoke ? SMOKE_DOMAIN : { ...SCALE_DOMAIN, slots: 10 };
}

/** Refuse to start when the folder's file system has less than `gib` GiB free: a 10,000-task release and its generated copy take several. */
function requireFreeSpace(dir: string, gib: number): number {
  const s = statfsSync(dir);
  const free = (s.bavail * s.bsize) / 1024 ** 3;
  if (free < gib) throw new Error(`${dir} has ${free.toFixed(1)} GiB free; the scale benchmark needs about ${gib} GiB`);
  return Math.round(free);
}

export interface ReplicatedRelease {
  /** The release folder (`<root>/releases/scale/1.0.0`). */
  dir: string;
  tasks: number;
  /** Tasks the build released (the sources of the copies). */
  built: number;
  /** `synth release` as a child process: collects, writes, audits the staged folder and publishes. */
  exported: TimedRun;
}

/** Grow the built domain to `tasks` released tasks under `root/generated/` and export it with `node bin/synth.js release` (its own child process). */
function replicatedRelease(build: ScaleBuild, root: string, tasks: number): ReplicatedRelease {
  const generated = join(root, "generated");
  const { built } = replicateDomain(join(build.paths.generated, SCALE_DOMAIN_ID), join(generated, SCALE_DOMAIN_ID), tasks);
  const out = join(root, "releases");
  const exported = timedNode(["bin/synth.js", "release", "scale", "--version", "1.0.0", "--domains", SCALE_DOMAIN_ID, "--generated", generated, "--sources", build.paths.sources, "--out", out, "--revision", "bench", "--json"]);
  return { dir: join(out, "scale", "1.0.0"), tasks, built, exported };
}

export interface SizedRuns<T> {
  opts: SyntheticOptions;
  build: ScaleBuild;
  /** GiB free in the temporary folder at the start. */
  free_gib: number;
  bySize: T[];
}

/**
 * The frame of the release-size benchmarks: in a fresh temporary folder (enough free space checked),
 * build the release domain once, then for each size grow and export a release and hand it to
 * `measure`; each size's folder is deleted before the next (a 10,000-task release takes GBs), and
 * the whole folder at the end.
 */
export function acrossReleaseSizes<T>(name: string, sizes: readonly number[], smoke: boolean, measure: (rel: ReplicatedRelease, root: string) => T): SizedRuns<T> {
  const dir = mkdtempSync(join(tmpdir(), `foundry-bench-${name}-`));
  try {
    const free_gib = requireFreeSpace(dir, smoke ? 1 : 8);
    const opts = releaseDomainOptions(smoke);
    const build = buildScaleDomain(join(dir, "base"), opts);
    const bySize = sizes.map((n) => {
      const root = join(dir, `n${n}`);
      try {
        return measure(replicatedRelease(build, root, n), root);
      } finally {
        removeTree(root);
      }
    });
    return { opts, build, free_gib, bySize };
  } finally {
    removeTree(dir);
  }
}

/**
 * Delete a folder of a few hundred thousand files. `rm -rf` when there is one: fs.rmSync took
 * minutes over a 10,000-task release and its generated copy, a file at a time from JavaScript.
 * A published release is read-only; both remove it all the same.
 */
function removeTree(dir: string): void {
  const r = spawnSync("rm", ["-rf", dir], { stdio: "ignore" });
  if (r.status !== 0) rmSync(dir, { recursive: true, force: true });
}
