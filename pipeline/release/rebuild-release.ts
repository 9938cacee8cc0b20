import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FoundryError } from "../core/errors.js";
import { resolveConfig } from "../core/config.js";
import { ReleaseManifest } from "../schemas/index.js";
import { runBuild } from "../build/run-build.js";
import { Progress } from "../build/progress.js";
import { releaseDomainIds } from "../../validation/audit/parse-release.js";
import { MANIFEST_FILE } from "../../validation/audit/release-layout.js";
import { exportRelease } from "./export-release.js";
import { removeTree } from "./remove-tree.js";

/** What building a release again from its sources showed. */
export interface RebuildComparison {
  identical: boolean;
  /** Root hashes: the release's, then the rebuild's. */
  root_hashes: [string, string];
  /** Files whose sha256 differs, or that only one side has. */
  differing: string[];
}

/**
 * Build the release's domains again from `sourcesDir` (and the reviewed `sopDir`) into a temporary
 * folder, with the seed and models its manifest states and its revision pinned, export it under the
 * same name and version, and compare the two file by file. The temporary folder is removed.
 */
export async function rebuildAndCompare(releaseDir: string, opts: { sourcesDir: string; sopDir: string; progress?: Progress }): Promise<RebuildComparison> {
  const manifest = ReleaseManifest.parse(JSON.parse(readFileSync(join(releaseDir, MANIFEST_FILE), "utf8")));
  const domains = releaseDomainIds(manifest);
  const missing = domains.filter((d) => !existsSync(join(opts.sourcesDir, d, "domain.yaml")));
  if (missing.length > 0) throw new FoundryError("REBUILD_SOURCES_MISSING", `the sources of ${missing.join(", ")} are not at hand, so the release cannot be rebuilt`, { file: opts.sourcesDir }, missing);
  const root = mkdtempSync(join(tmpdir(), "audit-rebuild-"));
  try {
    if (existsSync(opts.sopDir)) cpSync(opts.sopDir, join(root, "sop"), { recursive: true });
    // The manifest's provenance, not today's configuration: the same seed and the same model per role.
    const config = resolveConfig({ flags: { seed: manifest.seed, models: manifest.models } });
    await runBuild({ config, domains, paths: { sources: opts.sourcesDir, sop: join(root, "sop"), generated: join(root, "generated") }, progress: opts.progress ?? new Progress("silent") });
    const fresh = await exportRelease({ name: manifest.name, version: manifest.version, domains, generatedDir: join(root, "generated"), sourcesDir: opts.sourcesDir, outRoot: join(root, "out"), revision: manifest.pipeline.revision, replaces: manifest.replaces ?? null });
    const a = manifest.files;
    const b = fresh.manifest.files;
    const differing = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((f) => a[f] !== b[f]).sort();
    return { identical: manifest.root_hash === fresh.manifest.root_hash, root_hashes: [manifest.root_hash, fresh.manifest.root_hash], differing };
  } finally {
    removeTree(root);
  }
}
