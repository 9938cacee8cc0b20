import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const BROKEN = "tests/fixtures/check-sources/broken";

describe("synth check-sources", () => {
  it("reports a broken front matter, a missing key and a duplicate id with file and line, checks the rest, exits 1", () => {
    const r = runCli(["check-sources", BROKEN]);
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n").filter(Boolean)).toEqual([
      `${BROKEN}/docs/a-broken-front-matter.md:7: [DOC_FRONT_MATTER_SYNTAX] Flow sequence in block collection must be sufficiently indented and end with a ]`,
      `${BROKEN}/docs/b-missing-key.md:2 kind: [DOC_MISSING_KEY] required key 'kind' is missing`,
      `${BROKEN}/docs/c-limits.md:2 id: [DOC_DUPLICATE_ID] id 'limits-policy' is also used by docs/d-limits-copy.md, and neither version supersedes the other (got "limits-policy")`,
      `${BROKEN}/docs/d-limits-copy.md:2 id: [DOC_DUPLICATE_ID] id 'limits-policy' is also used by docs/c-limits.md, and neither version supersedes the other (got "limits-policy")`,
      `${BROKEN}: 3 of 5 documents loaded, 4 problems`,
    ]);
  });

  it("prints a machine-readable report with --json", () => {
    const r = runCli(["check-sources", BROKEN, "--json"]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { ok: boolean; problems: number; domains: Array<{ issues: Array<{ code: string; file: string; line: number }> }> };
    expect(report.ok).toBe(false);
    expect(report.problems).toBe(4);
    expect(report.domains[0]?.issues.map((i) => [i.code, i.file.split("/").pop(), i.line])).toEqual([
      ["DOC_FRONT_MATTER_SYNTAX", "a-broken-front-matter.md", 7],
      ["DOC_MISSING_KEY", "b-missing-key.md", 2],
      ["DOC_DUPLICATE_ID", "c-limits.md", 2],
      ["DOC_DUPLICATE_ID", "d-limits-copy.md", 2],
    ]);
  });

  it("is clean (exit 0) on a valid domain whose versions supersede each other", () => {
    const r = runCli(["check-sources", "tests/fixtures/check-sources/clean"]);
    expect(r.stdout).toBe("tests/fixtures/check-sources/clean: 3 of 3 documents loaded, ok\n");
    expect(r.code).toBe(0);
  });

  it("is a usage error (exit 2) for a folder that does not exist", () => {
    const r = runCli(["check-sources", "tests/fixtures/nowhere"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("synth: tests/fixtures/nowhere: [USAGE] no such folder\n");
  });
});
