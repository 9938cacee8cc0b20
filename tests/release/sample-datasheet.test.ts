import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { latestVersion, SAMPLE_RELEASE } from "../../pipeline/build/sample-release.js";
import { ReleaseManifest } from "../../pipeline/schemas/index.js";

const dir = join(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name, latestVersion(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name) ?? "none");

describe("the sample release's datasheet", () => {
  const readme = readFileSync(join(dir, "README.md"), "utf8");
  const manifest = ReleaseManifest.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));

  const table = (heading: string) => {
    const start = readme.indexOf(heading);
    const ends = ["\n### ", "\n#### "].map((h) => readme.indexOf(h, start + 1)).filter((i) => i > 0);
    const section = readme.slice(start, Math.min(...ends));
    return section.split("\n").filter((l) => /^\| [a-z]/.test(l) && !l.startsWith("| domain")).map((l) => l.split("|").slice(1, -1).map((c) => c.trim()));
  };

  it("states each domain's structure, and every sample domain meets the bar (≥12 documents, ≥3 distractors, ≥8 operations, ≥4 workflows, ≥15 released tasks; ≥150 tasks in 7 industries)", () => {
    const rows = table("### Structure");
    expect(rows.map((r) => r[0])).toEqual(Object.keys(manifest.counts.by_domain).sort());
    for (const [domain, documents, distractors, operations, , workflows, , , released] of rows) {
      expect(Number(documents), domain).toBeGreaterThanOrEqual(12);
      expect(Number(distractors), domain).toBeGreaterThanOrEqual(3);
      expect(Number(operations), domain).toBeGreaterThanOrEqual(8);
      expect(Number(workflows), domain).toBeGreaterThanOrEqual(4);
      expect(Number(released), domain).toBeGreaterThanOrEqual(15);
      expect(Number(released)).toBe(manifest.counts.by_domain[domain as string]?.tasks);
    }
    expect(manifest.counts.tasks).toBeGreaterThanOrEqual(150);
    expect(new Set(Object.values(manifest.counts.by_domain).map((d) => d.industry)).size).toBe(7);
  });

  it("every domain meets the trap and time targets: traps in ≥25% of tasks and every trap bites, time decides in ≥30%", () => {
    const rows = table("### What the tasks exercise");
    expect(rows.map((r) => r[0])).toEqual(Object.keys(manifest.counts.by_domain).sort());
    const share = (cell: string) => /^(\d+)\/(\d+)/.exec(cell)?.slice(1).map(Number) as [number, number];
    for (const [domain, , traps, bite, time] of rows) {
      const [trapTasks, tasks] = share(traps as string);
      expect(trapTasks / tasks, `${domain} traps`).toBeGreaterThanOrEqual(0.25);
      expect(bite, `${domain} traps that bite`).toBe(`${trapTasks}/${trapTasks}`);
      const [timed] = share(time as string);
      expect(timed / tasks, `${domain} time decides`).toBeGreaterThanOrEqual(0.3);
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
