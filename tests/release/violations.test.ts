import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stableJson } from "../../pipeline/core/canonical-json.js";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import { violationLabel, violationOrdinal } from "../../validation/audit/release-layout.js";
import { buildReleaseFixture, DOMAIN } from "./fixture.js";
import { writeBuildRecord } from "../../pipeline/build/build-record-file.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { cleanupTemp, tempDir, writableCopy } from "./helpers.js";

afterAll(cleanupTemp);

const V = `domains/${DOMAIN}/violations`;

function caught(f: () => unknown): FoundryError {
  try {
    f();
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a FoundryError");
}

describe("violation traces in a release", () => {
  it("are the mutation operators' traces the build stored, and the audit re-runs them", () => {
    const fx = buildReleaseFixture(tempDir("viol-op"), "a", "operators");
    const r = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("viol-op-out"), "releases"), revision: "r" });
    expect(Object.keys(r.manifest.files).filter((f) => f.startsWith(V))).toEqual([
      `${V}/move-funds/do_nothing.json`,
      `${V}/move-funds/touch_protected_object.json`,
      `${V}/release-payment/do_nothing.json`,
      `${V}/release-payment/miss_deadline.json`,
    ]);
    const audit = auditRelease(r.dir);
    expect([audit.ok, audit.mutants]).toEqual([true, { total: 4, killed: 4, not_stored: 0 }]);
    expect(audit.per_task.flatMap((t) => t.mutants.map((m) => `${t.task}:${m.operator}→${m.target_check}`))).toEqual([
      "move-funds:do_nothing→transfer-executed",
      "move-funds:touch_protected_object→others-untouched",
      "release-payment:do_nothing→payment-released",
      "release-payment:miss_deadline→before-cutoff",
    ]);
  });

  it("a release ships the traces the build judged and never makes them again: none stored is refused", () => {
    const fx = buildReleaseFixture(tempDir("viol-none"), "a", "operators");
    const gen = join(fx.generatedDir, DOMAIN);
    rmSync(join(gen, "violations", "move-funds"), { recursive: true });
    // A build record that agrees (as a build that stored no traces would leave it): only the missing traces are wrong.
    writeBuildRecord(gen, JSON.parse(readFileSync(join(gen, "build-record.json"), "utf8")));
    const e = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("viol-none-out"), "releases"), revision: "r" }));
    expect(e.code).toBe("RELEASE_VIOLATIONS_MISSING");
    expect(e.message).toBe("the validation report lists violation traces [do_nothing, touch_protected_object] for task move-funds; the build stored []. Rebuild with synth build");
  });

  it("a trace filed under another mutant's label is not accepted as that mutant", () => {
    const fx = buildReleaseFixture(tempDir("viol-label"));
    const release = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("viol-label-out"), "releases"), revision: "r" }).dir;
    const dir = writableCopy(release);
    const from = `${V}/move-funds/do_nothing.json`;
    const to = `${V}/move-funds/do_nothing-2.json`;
    renameSync(join(dir, from), join(dir, to));
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { files: Record<string, string>; root_hash: string };
    manifest.files[to] = manifest.files[from] as string;
    delete manifest.files[from];
    manifest.root_hash = manifestRootHash(manifest.files);
    writeFileSync(join(dir, "manifest.json"), stableJson(manifest));
    const audit = auditRelease(dir);
    expect(audit.ok).toBe(false);
    const t = audit.per_task.find((x) => x.task === "move-funds");
    expect(t?.mutants.filter((m) => !m.ok).map((m) => [m.file, m.reason])).toEqual([[to, "the validation report lists no mutant do_nothing of this task for this file"]]);
    expect(t?.mutants_not_stored).toEqual(["do_nothing"]);
  });

  it("labels the n-th mutant of an operator <operator>-<n>, and reads the ordinal back", () => {
    expect([violationLabel("drop_approval", 1), violationLabel("drop_approval", 3)]).toEqual(["drop_approval", "drop_approval-3"]);
    expect([violationOrdinal("drop_approval", "drop_approval"), violationOrdinal("drop_approval-3", "drop_approval")]).toEqual([1, 3]);
    expect([violationOrdinal("drop_approval-1", "drop_approval"), violationOrdinal("drop_approvals", "drop_approval"), violationOrdinal("do_nothing", "drop_approval")]).toEqual([null, null, null]);
  });
});
