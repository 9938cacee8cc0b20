import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { checkDomain } from "../../pipeline/sources/check-sources.js";
import { runCli } from "./run-cli.js";

describe("synth init", () => {
  it("scaffolds a domain that passes check-sources and builds, with tasks released", async () => {
    const root = mkdtempSync(join(tmpdir(), "init-"));
    const sources = join(root, "sources");
    const r = runCli(["init", "harbour-desk", "--sources", sources, "--title", "Harbour desk", "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files).toEqual([
      "docs/service-desk-manual.md",
      "docs/service-faq.md",
      "docs/service-policy.md",
      "docs/service-procedure.md",
      "docs/service-terms.md",
      "domain.yaml",
      "world.yaml",
    ]);
    const dir = join(sources, "harbour-desk");
    expect(checkDomain(dir).issues).toEqual([]);
    // One document of each kind.
    const kinds = readdirSync(join(dir, "docs")).length;
    expect(kinds).toBe(5);
    const outcome = await runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), paths: { sources, sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") });
    expect(outcome.domains[0]!.domain).toBe("harbour-desk");
    expect(outcome.domains[0]!.released).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it("never writes into an existing folder, and refuses an id that is not a folder name", () => {
    const root = mkdtempSync(join(tmpdir(), "init-"));
    expect(runCli(["init", "desk", "--sources", root]).code).toBe(0);
    const again = runCli(["init", "desk", "--sources", root]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists; synth init never writes into an existing folder");
    const bad = runCli(["init", "../x", "--sources", root]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("is not a domain id");
  }, 60_000);
});
