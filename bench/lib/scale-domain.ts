import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeSyntheticDomain, type SyntheticOptions } from "./synthetic-domain.js";
import { timedNode, type TimedRun } from "./timed-child.js";

/**
 * The synthetic domain of the scale benchmarks, generated and built offline with the real CLI.
 * Full size: 800 documents and 600 operations over 16 business lines; 16 × 6 = 96 operations are
 * the lines' own (named by their procedures), the other 504 are catalog capabilities reachable only
 * through the discovery tools; 50 task slots. 600 − 500 is not a multiple of the six operations a
 * line has, so the catalog is 504 rather than exactly 500.
 */
export const SCALE_DOMAIN: SyntheticOptions = { documents: 800, operations: 600, lines: 16, slots: 50, seed: 7 };
/** Smoke size: two lines (12 operations of their own, 8 catalog capabilities), 20 documents, 2 slots. */
export const SMOKE_DOMAIN: SyntheticOptions = { documents: 20, operations: 20, lines: 2, slots: 2, seed: 7 };

export const SCALE_DOMAIN_ID = "synthetic-desk";

/** A scale domain's folders under a temporary root T: T/sources, T/sop, T/generated. */
export interface ScalePaths {
  sources: string;
  sop: string;
  generated: string;
}

export function scalePaths(root: string): ScalePaths {
  return { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") };
}

/** The CLI's closing `--json` line of a build. */
interface BuildResult {
  cache: { hits: number; misses: number };
  domains: Array<{ domain: string; released: number }>;
}

export interface ScaleBuild {
  paths: ScalePaths;
  run: TimedRun;
  released: number;
  cache_misses: number;
}

/** Generate the synthetic domain under `root` and build it from scratch with `node bin/synth.js build … --json`. */
export function buildScaleDomain(root: string, opts: SyntheticOptions): ScaleBuild {
  const paths = scalePaths(root);
  mkdirSync(paths.sources, { recursive: true });
  writeSyntheticDomain(paths.sources, { ...opts, id: SCALE_DOMAIN_ID });
  // The CLI compiles the sources on its first start after an edit (bin/compile.mjs): not part of a build.
  timedNode(["bin/synth.js", "--help"]);
  const run = timedNode(["bin/synth.js", "build", "--sources", paths.sources, "--sop", paths.sop, "--generated", paths.generated, "--json"]);
  const last = run.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { event?: string } & Partial<BuildResult>)
    .find((l) => l.event === "result");
  if (!last?.domains || !last.cache) throw new Error("the build printed no result event");
  return { paths, run, released: last.domains.reduce((n, d) => n + d.released, 0), cache_misses: last.cache.misses };
}
