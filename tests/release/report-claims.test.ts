import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ValidationReport } from "../../pipeline/schemas/index.js";
import { readReportClaims } from "../../validation/audit/report-claims.js";
import { parseFile } from "../../validation/audit/parse-release.js";
import type { FileFailure, ReleaseFiles } from "../../validation/audit/verify-integrity.js";

// The audit reads a validation report entry by entry (report-claims.ts); these tests hold it to
// what the whole-file parse gives: the same claims for a well-formed report, the same problems for
// a malformed one.
const FILE = "validation/fx-treasury.json";
const SAMPLE = readFileSync(fileURLToPath(new URL(`../../generated/releases/sample/1.7.0/${FILE}`, import.meta.url)));

function files(bytes: Buffer): ReleaseFiles {
  const m = new Map([[FILE, bytes]]);
  return { get: (p) => m.get(p), has: (p) => m.has(p), keys: () => m.keys() };
}

/** The claims as the audit computed them from the whole parsed report. */
function wholeClaims(report: ValidationReport) {
  return {
    released: new Set(report.tasks.filter((t) => t.status === "released").map((t) => t.task)),
    mutants: new Map(report.tasks.map((t) => [t.task, t.mutants.map(({ operator, target_check, killed, failed_checks }) => ({ operator, target_check, killed, failed_checks }))])),
  };
}

describe("validation report claims, read entry by entry", () => {
  it("gives the claims of the whole-file parse for the sample release's report", () => {
    const problems: FileFailure[] = [];
    const claims = readReportClaims(files(SAMPLE), FILE, problems);
    expect(problems).toEqual([]);
    expect(claims).toEqual(wholeClaims(ValidationReport.parse(JSON.parse(SAMPLE.toString("utf8")))));
    expect(claims?.released.size).toBeGreaterThan(0);
  });

  it("reads compact JSON as well as indented JSON", () => {
    const compact = Buffer.from(JSON.stringify(JSON.parse(SAMPLE.toString("utf8"))));
    expect(readReportClaims(files(compact), FILE, [])).toEqual(readReportClaims(files(SAMPLE), FILE, []));
  });

  it.each([
    ["an entry that breaks the schema", (r: Record<string, unknown>) => ({ ...r, tasks: [{ ...(r.tasks as object[])[0], status: 42 }, ...(r.tasks as object[]).slice(1)] })],
    ["an unknown top-level key", (r: Record<string, unknown>) => ({ ...r, extra: true })],
    ["no task list", (r: Record<string, unknown>) => ({ ...r, tasks: undefined })],
  ])("reports %s exactly as the whole-file parse does", (_, edit) => {
    const bad = Buffer.from(JSON.stringify(edit(JSON.parse(SAMPLE.toString("utf8")) as Record<string, unknown>), null, 2));
    const expected: FileFailure[] = [];
    expect(parseFile(files(bad), FILE, ValidationReport, expected, true)).toBeNull();
    const problems: FileFailure[] = [];
    expect(readReportClaims(files(bad), FILE, problems)).toBeNull();
    expect(problems).toEqual(expected);
    expect(problems.length).toBeGreaterThan(0);
  });

  it("falls back to the whole-file parse for text JSON.parse reads differently (a repeated key: the last one wins)", () => {
    const text = SAMPLE.toString("utf8");
    const report = JSON.parse(text) as ValidationReport;
    const twice = Buffer.from(`{"tasks": [], ${text.trim().slice(1)}`);
    expect(readReportClaims(files(twice), FILE, [])).toEqual(wholeClaims(report));
  });

  it("reports bytes that are not JSON, and a missing report, as the whole-file parse does", () => {
    for (const bytes of [Buffer.from('{"domain": "fx-treasury", "tasks": [ {'), Buffer.from("\uFEFF{}")]) {
      const expected: FileFailure[] = [];
      parseFile(files(bytes), FILE, ValidationReport, expected, true);
      const problems: FileFailure[] = [];
      expect(readReportClaims(files(bytes), FILE, problems)).toBeNull();
      expect(problems).toEqual(expected);
    }
    const problems: FileFailure[] = [];
    expect(readReportClaims(files(SAMPLE), "validation/none.json", problems)).toBeNull();
    expect(problems).toEqual([{ file: "validation/none.json", reason: "required file is missing from the release" }]);
  });
});
