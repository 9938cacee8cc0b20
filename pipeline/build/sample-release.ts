import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReleaseManifest } from "../schemas/index.js";
import { exportRelease, type ExportResult } from "../release/export-release.js";
import { removeTree } from "../release/remove-tree.js";
import { compareVersions } from "../sop/select-rules.js";

/** The committed sample release: name and where its versions live. */
export const SAMPLE_RELEASE = { name: "sample", root: "generated/releases" } as const;

/** The newest committed version of a release, or null when none is committed. */
export function latestVersion(root: string, name: string): string | null {
  const dir = join(root, name);
  if (!existsSync(dir)) return null;
  const versions = readdirSync(dir).filter((v) => /^\d+\.\d+\.\d+$/.test(v)).sort(compareVersions);
  return versions.at(-1) ?? null;
}

export interface SampleCheck {
  /** The committed version compared against (null: none committed yet). */
  version: string | null;
  /** The freshly exported release (in a temporary folder). */
  fresh: ExportResult;
  /** Root hash of the committed release, when there is one. */
  committedRoot: string | null;
  identical: boolean | null;
  /** Files whose hashes differ, or that only one side has. */
  differing: string[];
}

/**
 * Export the freshly built domains as the sample release into a temporary folder, pinned to the
 * committed release's version and revision, and compare it file by file with the committed one.
 */
export async function checkSampleRelease(opts: { domains: readonly string[]; generatedDir: string; sourcesDir: string; releasesRoot?: string; keep?: boolean }): Promise<SampleCheck> {
  const root = opts.releasesRoot ?? SAMPLE_RELEASE.root;
  const version = latestVersion(root, SAMPLE_RELEASE.name);
  const committed = version ? ReleaseManifest.parse(JSON.parse(readFileSync(join(root, SAMPLE_RELEASE.name, version, "manifest.json"), "utf8"))) : null;
  const out = mkdtempSync(join(tmpdir(), "sample-release-"));
  const fresh = await exportRelease({
    name: SAMPLE_RELEASE.name,
    version: version ?? "0.0.0",
    domains: opts.domains,
    generatedDir: opts.generatedDir,
    sourcesDir: opts.sourcesDir,
    outRoot: out,
    ...(committed ? { revision: committed.pipeline.revision, replaces: committed.replaces ?? null } : {}),
  });
  const differing: string[] = [];
  if (committed) {
    const names = new Set([...Object.keys(committed.files), ...Object.keys(fresh.manifest.files)]);
    for (const f of [...names].sort()) if (committed.files[f] !== fresh.manifest.files[f]) differing.push(f);
  }
  const result: SampleCheck = { version, fresh, committedRoot: committed?.root_hash ?? null, identical: committed ? committed.root_hash === fresh.manifest.root_hash : null, differing };
  if (!opts.keep) removeTree(out);
  return result;
}
