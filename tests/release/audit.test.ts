import { appendFileSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stableJson, sha256 } from "../../pipeline/core/canonical-json.js";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { runCli } from "../cli/run-cli.js";
import { buildReleaseFixture, DOMAIN } from "./fixture.js";
import { cleanupTemp, fingerprint, rehash, runMain, tempDir, writableCopy } from "./helpers.js";

let release: string;
const TASK_FILE = `domains/${DOMAIN}/tasks/move-funds.json`;
const DB_FILE = `domains/${DOMAIN}/initial-state.sqlite`;

beforeAll(() => {
  const fx = buildReleaseFixture(tempDir("audit-fx"));
  release = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("audit-out"), "releases"), revision: "r" }).dir;
});
afterAll(cleanupTemp);

describe("auditRelease", () => {
  it("passes a fresh export: every golden trace replays and passes, every violation trace is killed", () => {
    const before = fingerprint(release);
    const r = auditRelease(release);
    expect(fingerprint(release)).toEqual(before);
    expect(r.ok).toBe(true);
    expect([r.tasks, r.golden_passed, r.hash_failures, r.problems, r.mutants]).toEqual([2, 2, [], [], { total: 4, killed: 4, not_stored: 0 }]);
    expect(r.per_task.map((t) => [t.task, t.ok, t.golden.checks_total, t.mutants.map((m) => `${m.operator}:${m.target_check}:${m.killed}`)])).toEqual([
      ["move-funds", true, 4, ["do_nothing:transfer-executed:true", "drop_approval:transfer-executed:true"]],
      ["release-payment", true, 4, ["do_nothing:payment-released:true", "touch_protected:acc2-untouched:true"]],
    ]);
  });

  it("synth audit exits 0 and prints the JSON summary (real process)", () => {
    const r = runCli(["audit", release, "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect([out.ok, out.tasks, out.golden_passed, out.hash_failures, out.mutants]).toEqual([true, 2, 2, [], { total: 4, killed: 4, not_stored: 0 }]);
  });

  const cases: Array<{ name: string; tamper: (dir: string) => void; file: string; reason: RegExp }> = [
    { name: "a changed byte in a task file", tamper: (d) => writeFileSync(join(d, TASK_FILE), readFileSync(join(d, TASK_FILE), "utf8").replace("5,000", "5,001")), file: TASK_FILE, reason: /^content changed: sha256 [0-9a-f]{64} differs from the manifest's [0-9a-f]{64}$/ },
    { name: "a missing file", tamper: (d) => rmSync(join(d, `domains/${DOMAIN}/golden/release-payment.json`)), file: `domains/${DOMAIN}/golden/release-payment.json`, reason: /^listed in the manifest but missing$/ },
    { name: "an extra file", tamper: (d) => writeFileSync(join(d, `domains/${DOMAIN}/tasks/bonus.json`), "{}"), file: `domains/${DOMAIN}/tasks/bonus.json`, reason: /^not listed in the manifest \(extra file\)$/ },
    {
      name: "an edited manifest",
      tamper: (d) => writeFileSync(join(d, "manifest.json"), readFileSync(join(d, "manifest.json"), "utf8").replace(/("README\.md": ")([0-9a-f])/, (_m, head: string, c: string) => `${head}${c === "0" ? "1" : "0"}`)),
      file: "manifest.json",
      reason: /^root_hash does not match the canonical JSON of `files`: the manifest was edited$/,
    },
    { name: "a truncated database", tamper: (d) => truncateSync(join(d, DB_FILE), 40960), file: DB_FILE, reason: /^truncated SQLite database: 40960 bytes, the header declares \d+ pages of 4096 bytes \(\d+ bytes\)$/ },
  ];

  for (const c of cases) {
    it(`synth audit exits 1 naming the file on ${c.name}`, async () => {
      const dir = writableCopy(release);
      c.tamper(dir);
      const r = await runMain(["audit", dir, "--json"]);
      expect(r.code).toBe(1);
      const out = JSON.parse(r.stdout) as { ok: boolean; hash_failures: Array<{ file: string; reason: string }>; golden_passed: number };
      expect(out.ok).toBe(false);
      expect(out.golden_passed).toBe(0);
      expect(out.hash_failures.map((f) => f.file)).toContain(c.file);
      expect(out.hash_failures.filter((f) => f.file === c.file).some((f) => c.reason.test(f.reason))).toBe(true);
      const text = await runMain(["audit", dir]);
      expect(text.code).toBe(1);
      expect(text.stdout).toContain(`${c.file}: `);
      expect(text.stdout).toContain("refused: the files do not match the manifest; nothing was replayed");
    });
  }

  it("names a truncated database even when the manifest was re-hashed to match it", () => {
    const dir = writableCopy(release);
    truncateSync(join(dir, DB_FILE), 40960);
    rehash(dir, DB_FILE);
    const r = auditRelease(dir);
    expect(r.ok).toBe(false);
    expect(r.hash_failures.map((f) => f.file)).toEqual([DB_FILE]);
    expect(r.hash_failures[0]?.reason).toMatch(/^truncated SQLite database: 40960 bytes/);
  });

  it("fails a re-hashed golden trace that no longer replays, naming the event", () => {
    const dir = writableCopy(release);
    const file = `domains/${DOMAIN}/golden/release-payment.json`;
    const trace = JSON.parse(readFileSync(join(dir, file), "utf8")) as { events: Array<Record<string, unknown>> };
    (trace.events[2] as Record<string, unknown>).args = { payment_id: "PAY-00002" };
    writeFileSync(join(dir, file), stableJson(trace));
    rehash(dir, file);
    const r = auditRelease(dir);
    expect([r.ok, r.hash_failures, r.golden_passed]).toEqual([false, [], 1]);
    const t = r.per_task.find((x) => x.task === "release-payment");
    expect(t?.golden.passed).toBe(false);
    // PAY-00002 would take ACC-001 below its reserve floor: the replayed release is rejected.
    expect(t?.golden.mismatches[0]).toBe('event 3 status: recorded "executed", replayed "rejected"');
    expect(t?.golden.failed_checks.map((c) => c.check)).toEqual(["payment-released", "before-cutoff"]);
  });

  it("fails a violation trace that no longer fails its target check", () => {
    const dir = writableCopy(release);
    const file = `validation/${DOMAIN}.json`;
    const report = JSON.parse(readFileSync(join(dir, file), "utf8")) as { tasks: Array<{ task: string; mutants: Array<{ operator: string; target_check: string | null }> }> };
    const m = report.tasks.find((t) => t.task === "move-funds")?.mutants.find((x) => x.operator === "drop_approval");
    if (!m) throw new Error("fixture has no drop_approval mutant");
    m.target_check = "transfer-approved";
    writeFileSync(join(dir, file), stableJson(report));
    rehash(dir, file);
    const r = auditRelease(dir);
    expect(r.ok).toBe(false);
    expect(r.mutants).toEqual({ total: 4, killed: 3, not_stored: 0 });
    const bad = r.per_task.flatMap((t) => t.mutants).filter((x) => !x.ok);
    expect(bad.map((x) => [x.file, x.reason])).toEqual([[`domains/${DOMAIN}/violations/move-funds/drop_approval.json`, "no longer killed: target check transfer-approved passed"]]);
  });

  it("reports manifest counts that disagree with the content", () => {
    const dir = writableCopy(release);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { counts: { checks: number } };
    manifest.counts.checks = 9;
    writeFileSync(join(dir, "manifest.json"), stableJson(manifest));
    const r = auditRelease(dir);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([{ file: "manifest.json", reason: "counts.checks is 9, the release holds 8" }]);
  });

  it("refuses a folder without a manifest, and a path that is not a release", async () => {
    const dir = writableCopy(release);
    appendFileSync(join(dir, "manifest.json"), "garbage");
    const r = auditRelease(dir);
    expect(r.hash_failures).toHaveLength(1);
    expect(r.hash_failures[0]?.file).toBe("manifest.json");
    expect(r.hash_failures[0]?.reason).toMatch(/^not valid JSON: /);
    const missing = await runMain(["audit", join(dir, "nope")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`synth: ${join(dir, "nope")}: [RELEASE_NOT_FOUND] no such release folder (give its path, or NAME@X.Y.Z)\n`);
  });
});
