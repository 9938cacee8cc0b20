import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";
import { renderSopFiles } from "../../pipeline/sop/sop-files.js";

// tests/fixtures/sop/<case>/<domain>/ is the input domain; tests/fixtures/sop/<case>/expected/ the SOP
// files it must give, byte for byte. Regenerate with `UPDATE_FIXTURES=1 npx vitest run tests/sop`,
// then review the diff.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "sop");
const UPDATE = process.env.UPDATE_FIXTURES === "1";

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

const cases = readdirSync(ROOT).sort();

describe("SOP fixtures: a folder of documents gives exactly the expected SOP files", () => {
  it("has fixture cases", () => {
    expect(cases).toEqual(["broken-desk", "clinic-intake", "payments-basic"]);
  });

  for (const name of cases) {
    it(name, async () => {
      const caseDir = join(ROOT, name);
      const input = readdirSync(caseDir).find((d) => existsSync(join(caseDir, d, "domain.yaml")));
      expect(input).toBeDefined();
      const sop = await extractDomainSop(join(caseDir, input as string));
      const files = renderSopFiles(sop);
      const expectedDir = join(caseDir, "expected");
      if (UPDATE) {
        rmSync(expectedDir, { recursive: true, force: true });
        for (const [rel, text] of files) {
          mkdirSync(dirname(join(expectedDir, rel)), { recursive: true });
          writeFileSync(join(expectedDir, rel), text);
        }
      }
      expect([...files.keys()].sort()).toEqual(filesUnder(expectedDir));
      for (const [rel, text] of files) expect(text, rel).toBe(readFileSync(join(expectedDir, rel), "utf8"));
    });
  }
});
