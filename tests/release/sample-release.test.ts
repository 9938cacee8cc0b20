import { cpSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { checkSampleRelease, latestVersion, SAMPLE_RELEASE } from "../../pipeline/build/sample-release.js";
import { auditRelease } from "../../validation/audit/index.js";

/** Every domain under sources/: the sample release is built from all of them. */
const DOMAINS = readdirSync("sources", { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join("sources", e.name, "domain.yaml"))).map((e) => e.name).sort();

describe("the committed sample release", () => {
  it("audits clean: every hash, every golden trace, every violation trace", async () => {
    const version = latestVersion(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name);
    expect(version).not.toBeNull();
    const report = await auditRelease(join(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name, version as string));
    expect(report.hash_failures).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.golden_passed).toBe(report.tasks);
    expect(report.mutants.killed).toBe(report.mutants.total);
  }, 300_000);

  it("is rebuilt byte-identical from sources/ and the reviewed sop/ (a change that alters it must bump its version)", async () => {
    const root = mkdtempSync(join(tmpdir(), "sample-"));
    cpSync("sop", join(root, "sop"), { recursive: true });
    const config = resolveConfig({ env: {}, cwd: "/nonexistent" });
    await runBuild({ config, domains: DOMAINS, paths: { sources: "sources", sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") });
    const check = await checkSampleRelease({ domains: DOMAINS, generatedDir: join(root, "generated"), sourcesDir: "sources" });
    expect(check.differing).toEqual([]);
    expect(check.identical).toBe(true);
    expect(check.fresh.audit?.ok).toBe(true);
  }, 1_200_000);
});
