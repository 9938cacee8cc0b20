import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportRelease, type ExportOptions } from "./export-release.js";
import { gitRevision } from "./git-revision.js";
import { removeTree } from "./remove-tree.js";

export interface ReproducibilityResult {
  /** Both exports have the same root hash (so every file is byte-identical). */
  ok: boolean;
  root_hashes: [string, string];
  /** Files whose sha256 differs between the two exports, or that only one has. */
  differing: string[];
}

/**
 * Export the same inputs twice, into two fresh temporary folders, and compare the manifests. The
 * revision is resolved once and pinned for both, since it is the one input that is not a file.
 * Both exports are removed afterwards.
 */
export function checkReproducible(options: Omit<ExportOptions, "outRoot" | "hooks">): ReproducibilityResult {
  const pinned = { ...options, revision: options.revision ?? gitRevision(options.sourcesDir ?? "sources") };
  const roots = [mkdtempSync(join(tmpdir(), "release-repro-a-")), mkdtempSync(join(tmpdir(), "release-repro-b-"))] as const;
  try {
    const [a, b] = roots.map((outRoot) => exportRelease({ ...pinned, outRoot }).manifest);
    const fa = a!.files;
    const fb = b!.files;
    const differing = [...new Set([...Object.keys(fa), ...Object.keys(fb)])].filter((f) => fa[f] !== fb[f]).sort();
    return { ok: a!.root_hash === b!.root_hash, root_hashes: [a!.root_hash, b!.root_hash], differing };
  } finally {
    for (const r of roots) removeTree(r);
  }
}
