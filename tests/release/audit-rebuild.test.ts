import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { rebuildAndCompare } from "../../pipeline/release/rebuild-release.js";

/** fx-treasury with two task slots, built and released into a temporary workspace. */
async function smallRelease(): Promise<{ root: string; dir: string }> {
  const root = mkdtempSync(join(tmpdir(), "audit-rebuild-"));
  cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
  const card = join(root, "sources/fx-treasury/domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, "task_count: 2"));
  const paths = { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") };
  await runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), paths, progress: new Progress("silent") });
  const { dir } = exportRelease({ name: "small", version: "1.2.0", replaces: "1.1.0", domains: ["fx-treasury"], generatedDir: paths.generated, sourcesDir: paths.sources, outRoot: join(root, "releases"), revision: "pinned" });
  return { root, dir };
}

describe("synth audit --rebuild", () => {
  it("rebuilds a release from its sources byte for byte, and names the files that differ once a source changed", async () => {
    const { root, dir } = await smallRelease();
    const same = await rebuildAndCompare(dir, { sourcesDir: join(root, "sources"), sopDir: join(root, "sop") });
    expect(same.differing).toEqual([]);
    expect(same.identical).toBe(true);

    const faq = join(root, "sources/fx-treasury/docs/treasury-services-faq.md");
    writeFileSync(faq, `${readFileSync(faq, "utf8")}\nThe hub is staffed on every business day.\n`);
    const changed = await rebuildAndCompare(dir, { sourcesDir: join(root, "sources"), sopDir: join(root, "sop") });
    expect(changed.identical).toBe(false);
    expect(changed.differing).toContain("domains/fx-treasury/docs/treasury-services-faq.md");
    expect(changed.differing).toContain("domains/fx-treasury/documents.json");
    expect(changed.root_hashes[0]).not.toBe(changed.root_hashes[1]);
  }, 300_000);
});
