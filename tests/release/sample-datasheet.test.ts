import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { latestVersion, SAMPLE_RELEASE } from "../../pipeline/build/sample-release.js";
import { ReleaseManifest } from "../../pipeline/schemas/index.js";

const dir = join(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name, latestVersion(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name) ?? "none");

describe("the sample release's datasheet", () => {
  const readme = readFileSync(join(dir, "README.md"), "utf8");
  const manifest = ReleaseManifest.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));

  it("states each domain's structure, and every sample domain meets the bar (≥10 documents, ≥2 distractors, ≥6 operations, ≥3 workflows, ≥10 released tasks)", () => {
    const start = readme.indexOf("### Structure");
    const section = readme.slice(start, readme.indexOf("\n### ", start + 1));
    const rows = section.split("\n").filter((l) => /^\| [a-z]/.test(l) && !l.startsWith("| domain")).map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
    expect(rows.map((r) => r[0])).toEqual(["customs-clearance", "ed-triage", "fx-treasury"]);
    for (const [domain, documents, distractors, operations, , workflows, , , released] of rows) {
      expect(Number(documents), domain).toBeGreaterThanOrEqual(10);
      expect(Number(distractors), domain).toBeGreaterThanOrEqual(2);
      expect(Number(operations), domain).toBeGreaterThanOrEqual(6);
      expect(Number(workflows), domain).toBeGreaterThanOrEqual(3);
      expect(Number(released), domain).toBeGreaterThanOrEqual(10);
      expect(Number(released)).toBe(manifest.counts.by_domain[domain as string]?.tasks);
    }
  });

  it("states the audit's figures, which match the manifest", () => {
    const line = readme.split("\n").find((l) => l.startsWith("`synth audit` on this release")) ?? "";
    expect(line).toBe(
      `\`synth audit\` on this release, run before it was published: all ${Object.keys(manifest.files).length + 1} files match the manifest; ${manifest.counts.tasks} of ${manifest.counts.tasks} golden traces replay from a fresh initial state and pass every check; ${line.match(/(\d+) of \1 stored violation traces/)?.[1]} of ${line.match(/(\d+) of \1 stored violation traces/)?.[1]} stored violation traces still fail on the check they target.`,
    );
    expect(line).toMatch(/; (\d+) of \1 stored violation traces still fail/);
  });
});
