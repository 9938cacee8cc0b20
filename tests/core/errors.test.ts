import { describe, expect, it } from "vitest";
import { FoundryError, formatIssue } from "../../pipeline/core/errors.js";

describe("FoundryError", () => {
  it("carries code, location and value, and formats as file:line path: [code] message (got value)", () => {
    const e = new FoundryError("DOC_MISSING_KEY", "required key 'kind' is missing", { file: "docs/a.md", line: 2, path: "kind" });
    expect(formatIssue(e.toIssue())).toBe("docs/a.md:2 kind: [DOC_MISSING_KEY] required key 'kind' is missing");
    expect(formatIssue(new FoundryError("X", "bad", { path: "a.b" }, "v".repeat(100)).toIssue())).toBe(`a.b: [X] bad (got "${"v".repeat(56)}...)`);
    expect(FoundryError.is(e)).toBe(true);
    expect(FoundryError.is(new Error("x"))).toBe(false);
  });
});
