import { readFileSync, writeFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256, stableJson } from "../../pipeline/core/canonical-json.js";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import { cleanupTemp, writableCopy } from "./helpers.js";
import { latestVersion, SAMPLE_RELEASE } from "../../pipeline/build/sample-release.js";

afterAll(cleanupTemp);

const SAMPLE = join(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name, latestVersion(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name) ?? "none");
const FX = "domains/fx-treasury";

type Manifest = { files: Record<string, string>; root_hash: string };

/** A writable copy of the sample release that ships fx-treasury's world.yaml (releases since the build record do). */
function sampleCopy(): { dir: string; manifest: Manifest } {
  const dir = writableCopy(SAMPLE);
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  for (const d of ["customs-clearance", "ed-triage", "fx-treasury"]) {
    const path = `domains/${d}/world.yaml`;
    if (manifest.files[path]) continue;
    copyFileSync(join("sources", d, "world.yaml"), join(dir, path));
    manifest.files[path] = sha256(readFileSync(join(dir, path)));
  }
  return { dir, manifest };
}

/** Edit one file and recompute its hash and the root hash: the tampering every hash check accepts. */
function tamper(dir: string, manifest: Manifest, path: string, edit: (text: string) => string): string {
  const text = readFileSync(join(dir, path), "utf8");
  const changed = edit(text);
  expect(changed).not.toBe(text);
  writeFileSync(join(dir, path), changed);
  manifest.files[path] = sha256(Buffer.from(changed, "utf8"));
  manifest.root_hash = manifestRootHash(manifest.files);
  writeFileSync(join(dir, "manifest.json"), stableJson(manifest));
  return manifest.root_hash;
}

describe("consistent tampering (file and root hashes recomputed)", () => {
  it("a threshold changed in documents.json while docs/*.md still says 250,000.00 fails the audit", () => {
    const { dir, manifest } = sampleCopy();
    const original = JSON.parse(readFileSync(join(SAMPLE, "manifest.json"), "utf8")) as Manifest;
    const root = tamper(dir, manifest, `${FX}/documents.json`, (t) => t.replace("| 250,000.00 | 64,000.00", "| 350,000.00 | 64,000.00"));
    const report = auditRelease(dir);
    expect(report.hash_failures).toEqual([]);
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.file)).toEqual([`${FX}/documents.json`]);
    expect(report.problems[0]?.reason).toBe('daily-payment-limit-policy@3.0 differs from its document in docs/: text at character 3350: "xt business day |\\n| 350,000.00 | 64,000." vs "xt business day |\\n| 250,000.00 | 64,000." (documents.json vs docs/)');
    // Pinned to the published root, the same folder is refused before anything runs, naming both hashes.
    const pinned = auditRelease(dir, { root: original.root_hash });
    expect(pinned.ok).toBe(false);
    expect(pinned.hash_failures[0]).toEqual({ file: "manifest.json", reason: `root_hash ${root} is not the pinned root ${original.root_hash}: this is not the release that root names` });
  }, 300_000);

  it("a precondition of world.json set to SELECT 1 fails the audit", () => {
    const { dir, manifest } = sampleCopy();
    tamper(dir, manifest, `${FX}/world.json`, (t) => t.replace("SELECT COUNT(*) = 1 FROM clients WHERE client_id = :client_id", "SELECT 1"));
    const report = auditRelease(dir);
    expect(report.hash_failures).toEqual([]);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      { file: `${FX}/world.json`, reason: 'is not the world model world.yaml gives: operations[0].preconditions[0].sql at character 7: "SELECT 1" vs "SELECT COUNT(*) = 1 FROM cl" (world.json vs world.yaml)' },
    ]);
  }, 300_000);
});
