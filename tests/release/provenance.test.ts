import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FoundryError } from "../../pipeline/core/errors.js";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { writeBuildRecord } from "../../pipeline/build/build-record-file.js";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import { stableJson } from "../../pipeline/core/canonical-json.js";
import { rmSync } from "node:fs";
import { buildReleaseFixture, DOMAIN } from "./fixture.js";
import { cleanupTemp, tempDir, writableCopy } from "./helpers.js";

afterAll(cleanupTemp);

function caught(f: () => unknown): FoundryError {
  try {
    f();
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a FoundryError");
}

const recordOf = (gen: string) => JSON.parse(readFileSync(join(gen, DOMAIN, "build-record.json"), "utf8"));

describe("a release takes its provenance from the build record", () => {
  it("states the record's seed and models, not today's configuration", () => {
    const fx = buildReleaseFixture(tempDir("prov"));
    const gen = join(fx.generatedDir, DOMAIN);
    const record = recordOf(fx.generatedDir);
    writeBuildRecord(gen, { ...record, seed: 9, models: { ...record.models, solver: "openai:gpt-4.1" } });
    const before = process.env.FOUNDRY_MODEL;
    process.env.FOUNDRY_MODEL = "anthropic:other";
    try {
      // The world was built with seed 7; the record says 9, so the staged audit's rebuild of the database refuses it.
      const e = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("prov-out"), "releases"), revision: "r" }));
      expect(e.code).toBe("RELEASE_AUDIT_FAILED");
      expect(e.message).toContain("is not the initial state world.yaml builds with seed 9");
      writeBuildRecord(gen, { ...record, models: { ...record.models, solver: "openai:gpt-4.1" } });
      const r = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("prov-out2"), "releases"), revision: "r" });
      expect([r.manifest.seed, r.manifest.models.solver, r.manifest.models["task-designer"]]).toEqual([7, "openai:gpt-4.1", "deterministic"]);
    } finally {
      if (before === undefined) delete process.env.FOUNDRY_MODEL;
      else process.env.FOUNDRY_MODEL = before;
    }
  });

  it("refuses sources edited since the build (RELEASE_STALE_SOURCES)", () => {
    const fx = buildReleaseFixture(tempDir("stale-src"));
    appendFileSync(join(fx.sourcesDir, DOMAIN, "docs", "payment-release-procedure.md"), "\nAn edit after the build.\n");
    const e = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("o"), "releases"), revision: "r" }));
    expect(e.code).toBe("RELEASE_STALE_SOURCES");
    expect(e.message).toMatch(/^.*mini-treasury changed since the build \(sources hash [0-9a-f]{12}, the build record says [0-9a-f]{12}\): rebuild with synth build before releasing$/);
  });

  it("refuses a world that is not the one built (RELEASE_STALE_WORLD)", () => {
    const fx = buildReleaseFixture(tempDir("stale-world"));
    const file = join(fx.generatedDir, DOMAIN, "world.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"rules":', '"rules" :'));
    const e = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("o"), "releases"), revision: "r" }));
    expect([e.code, e.message]).toEqual(["RELEASE_STALE_WORLD", "the world is not the one built: world.json changed: rebuild with synth build before releasing"]);
  });

  it("refuses outputs of other code (RELEASE_STALE_CODE) and changed generated files (RELEASE_STALE_BUILD)", () => {
    const fx = buildReleaseFixture(tempDir("stale-code"));
    const gen = join(fx.generatedDir, DOMAIN);
    const record = recordOf(fx.generatedDir);
    writeBuildRecord(gen, { ...record, code_fingerprint: "0".repeat(64) });
    const e = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("o"), "releases"), revision: "r" }));
    expect(e.code).toBe("RELEASE_STALE_CODE");
    expect(e.message).toMatch(/^the pipeline's code changed since the build \(code fingerprint [0-9a-f]{12}, version [^;]+; the build record says 000000000000, version [^)]+\): rebuild with synth build before releasing$/);
    writeBuildRecord(gen, record);
    writeFileSync(join(gen, "tasks", "move-funds.json"), readFileSync(join(gen, "tasks", "move-funds.json"), "utf8").replace("5,000", "5,001"));
    const b = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("o"), "releases"), revision: "r" }));
    expect([b.code, b.message]).toEqual(["RELEASE_STALE_BUILD", "generated files differ from the build record: tasks/move-funds.json changed: rebuild with synth build before releasing"]);
  });

  it("removes staging folders of killed exports, and the audit refuses a staging folder", () => {
    const fx = buildReleaseFixture(tempDir("staging"));
    const out = join(tempDir("staging-out"), "releases");
    const first = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: out, revision: "r" });
    const dead = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
    const stale = join(out, "demo", `.1.1.0.partial-${dead}`);
    mkdirSync(stale);
    // A copy of a finished release under a staging name is still not a release.
    const copy = writableCopy(first.dir);
    const staged = join(copy, "..", `.1.0.0.partial-${dead}`);
    spawnSync("mv", [copy, staged]);
    const a = auditRelease(staged);
    expect([a.ok, a.hash_failures]).toEqual([false, [{ file: ".", reason: "this is the staging folder of an export that did not finish (.X.Y.Z.partial-PID), not a release" }]]);
    exportRelease({ name: "demo", version: "1.0.1", domains: [DOMAIN], ...fx, outRoot: out, revision: "r" });
    expect(existsSync(stale)).toBe(false);
  });

  it("an audit is ok only when every violation trace the report lists is stored", () => {
    const fx = buildReleaseFixture(tempDir("not-stored"));
    const r = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("not-stored-out"), "releases"), revision: "r" });
    const dir = writableCopy(r.dir);
    const path = `domains/${DOMAIN}/violations/move-funds/do_nothing.json`;
    rmSync(join(dir, path));
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { files: Record<string, string>; root_hash: string };
    delete manifest.files[path];
    manifest.root_hash = manifestRootHash(manifest.files);
    writeFileSync(join(dir, "manifest.json"), stableJson(manifest));
    const a = auditRelease(dir);
    expect([a.ok, a.hash_failures, a.problems, a.mutants]).toEqual([false, [], [], { total: 3, killed: 3, not_stored: 1 }]);
  });
});
