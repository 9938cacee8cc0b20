import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { runCli } from "../cli/run-cli.js";
import { buildReleaseFixture, DOMAIN } from "./fixture.js";
import { cleanupTemp, fingerprint, runMain, tempDir } from "./helpers.js";

afterAll(cleanupTemp);

describe("synth release", () => {
  it("exports (real process), then refuses the same version with exit 1 and changes nothing", async () => {
    const fx = buildReleaseFixture(tempDir("cli-fx"));
    const out = join(tempDir("cli-out"), "releases");
    const args = ["release", "demo", "--version", "1.2.3", "--domains", DOMAIN, "--generated", fx.generatedDir, "--sources", fx.sourcesDir, "--out", out, "--revision", "cli-rev", "--json"];
    const r = runCli(args, { env: { FOUNDRY_MODEL: "", FOUNDRY_SEED: "" } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { ok: boolean; dir: string; files: number; audit: { tasks: number; golden_passed: number } };
    expect([summary.ok, summary.dir, summary.files, summary.audit.tasks, summary.audit.golden_passed]).toEqual([true, join(out, "demo", "1.2.3"), 36, 2, 2]);
    expect(auditRelease(summary.dir).ok).toBe(true);

    const before = fingerprint(join(out, "demo"));
    const again = await runMain(args);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`synth: ${join(out, "demo", "1.2.3")}: [RELEASE_EXISTS] this release version already exists; releases are never overwritten (choose a new --version)\n`);
    expect(fingerprint(join(out, "demo"))).toEqual(before);
  });

  it("rejects a bad version as a usage error and writes nothing", async () => {
    const fx = buildReleaseFixture(tempDir("cli-fx2"));
    const out = join(tempDir("cli-out2"), "releases");
    const r = await runMain(["release", "demo", "--version", "1.2", "--domains", DOMAIN, "--generated", fx.generatedDir, "--sources", fx.sourcesDir, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('synth: version: [USAGE] release version must be X.Y.Z (got "1.2")\n');
    expect(existsSync(out)).toBe(false);
  });

  it("has help with examples for release, audit and diff", async () => {
    for (const cmd of ["release", "audit", "diff"]) {
      const r = await runMain([cmd, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: synth ${cmd}`);
      expect(r.stdout).toContain("Examples:");
    }
  });
});
