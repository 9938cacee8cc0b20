import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const ACME = join(import.meta.dirname, "..", "fixtures", "sources", "acme-payments");
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function workingCopy(): string {
  const root = mkdtempSync(join(tmpdir(), "build-refuses-"));
  made.push(root);
  mkdirSync(join(root, "sources"));
  cpSync(ACME, join(root, "sources", "acme-payments"), { recursive: true });
  return root;
}

/** stderr without the run line every build prints first. */
const afterRunLine = (stderr: string) => stderr.replace(/^run run-[0-9a-f]{8} \(1 domain\(s\); resume with: synth resume run-[0-9a-f]{8}\)\n/, "");

const BUILD = ["build", "--domains", "acme-payments", "--sources", "sources", "--sop", "sop", "--generated", "generated"];

describe("synth build refuses what synth check-sources refuses (one validation)", () => {
  it("a document with a duplicate clause anchor: check-sources exits 1, and so does the build, listing the problem; no task is written", () => {
    const root = workingCopy();
    writeFileSync(
      join(root, "sources", "acme-payments", "docs", "zz-dup.md"),
      '---\nid: zz-dup\ntitle: Dup\nkind: policy\nversion: "1"\neffective_from: 2026-01-01\n---\n# Rules\n\n- **DUP-1** First text.\n- **DUP-2** Second.\n- **DUP-1** Again.\n',
    );
    const problem = "sources/acme-payments/docs/zz-dup.md:12: [SOP_DUPLICATE_ANCHOR] clause DUP-1 is defined twice in zz-dup@1 (first on line 10)";
    const check = runCli(["check-sources", "sources/acme-payments"], { cwd: root });
    expect(check.stdout).toBe(`${problem}\nsources/acme-payments: 5 of 5 documents loaded, 1 problem\n`);
    expect(check.code).toBe(1);

    const build = runCli(BUILD, { cwd: root, timeoutMs: 300_000 });
    expect(afterRunLine(build.stderr)).toBe(`synth: sources/acme-payments: [SOURCES_INVALID] sources/acme-payments has 1 problem(s); run synth check-sources:\n  ${problem}\n`);
    expect(build.code).toBe(1);
    expect(existsSync(join(root, "generated", "acme-payments"))).toBe(false);
    expect(existsSync(join(root, "sop", "acme-payments"))).toBe(false);
  });

  it("a world effect naming an unknown parameter fails the build at ingest with file:line", () => {
    const root = workingCopy();
    const file = join(root, "sources", "acme-payments", "world.yaml");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace(/(effects:\n\s+- sql: "[^"]*?)WHERE payment_id = :payment_id/, "$1WHERE payment_id = :payment_idd"));
    const build = runCli(BUILD, { cwd: root, timeoutMs: 300_000 });
    expect(afterRunLine(build.stderr)).toBe(
      'synth: sources/acme-payments: [SOURCES_INVALID] sources/acme-payments has 1 problem(s); run synth check-sources:\n  sources/acme-payments/world.yaml:67 operations[3].effects[0].sql: [WORLD_SQL_UNKNOWN_PARAM] effect SQL uses :payment_idd, which is neither a parameter nor one of :now, :actor, :call (got "payment_idd")\n',
    );
    expect(build.code).toBe(1);
    expect(existsSync(join(root, "generated", "acme-payments"))).toBe(false);
  });
});
