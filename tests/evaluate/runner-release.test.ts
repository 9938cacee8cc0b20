import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findReleaseDir } from "../../pipeline/evaluate/load-release.js";

describe("which release the evaluator reads", () => {
  it("NAME alone is its newest version (by version order, not text order); NAME@X.Y.Z and a path are taken as given", () => {
    const root = mkdtempSync(join(tmpdir(), "releases-"));
    for (const v of ["1.0.0", "1.2.0", "1.10.0", "1.9.9"]) mkdirSync(join(root, "bench", v), { recursive: true });
    mkdirSync(join(root, "bench", ".1.11.0.partial-123"));
    expect(findReleaseDir("bench", root)).toBe(join(root, "bench", "1.10.0"));
    expect(findReleaseDir("bench@1.2.0", root)).toBe(join(root, "bench", "1.2.0"));
    expect(findReleaseDir(join(root, "bench", "1.0.0"), root)).toBe(join(root, "bench", "1.0.0"));
    expect(() => findReleaseDir("nothing", root)).toThrow(`no release named nothing (no X.Y.Z folder under ${join(root, "nothing")})`);
    expect(() => findReleaseDir("bench@2.0.0", root)).toThrow("no release bench@2.0.0");
  });
});
