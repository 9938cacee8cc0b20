import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HASHES_FILE, writeSopDir } from "../../pipeline/sop/write-sop-dir.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), "foundry-write-"));
  dirs.push(d);
  return d;
};

describe("writeSopDir", () => {
  it("keeps a file it did not write, until --force", () => {
    const dir = fresh();
    writeFileSync(join(dir, "rules.json"), "[]\n# mine\n");
    const files = new Map([["rules.json", "[]\n"]]);
    expect(writeSopDir(dir, files)).toEqual({ written: [], unchanged: [], kept: ["rules.json"], removed: [] });
    expect(JSON.parse(readFileSync(join(dir, HASHES_FILE), "utf8"))).toEqual({ files: {} });
    expect(writeSopDir(dir, files, { force: true })).toEqual({ written: ["rules.json"], unchanged: [], kept: [], removed: [] });
    expect(readFileSync(join(dir, "rules.json"), "utf8")).toBe("[]\n");
  });

  it("keeps an edited file that is no longer produced; deletes it with --force", () => {
    const dir = fresh();
    writeSopDir(dir, new Map([["workflows/a.json", "{}\n"], ["rules.json", "[]\n"]]));
    writeFileSync(join(dir, "workflows/a.json"), '{"edited": true}\n');
    expect(writeSopDir(dir, new Map([["rules.json", "[]\n"]]))).toEqual({ written: [], unchanged: ["rules.json"], kept: ["workflows/a.json"], removed: [] });
    expect(writeSopDir(dir, new Map([["rules.json", "[]\n"]]))).toEqual({ written: [], unchanged: ["rules.json"], kept: ["workflows/a.json"], removed: [] });
    expect(writeSopDir(dir, new Map([["rules.json", "[]\n"]]), { force: true })).toEqual({ written: [], unchanged: ["rules.json"], kept: [], removed: ["workflows/a.json"] });
    expect(existsSync(join(dir, "workflows/a.json"))).toBe(false);
  });

  it("rewrites a file deleted by hand and ignores an unreadable hash record", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeSopDir(dir, new Map([["meta.json", "{}\n"]]));
    rmSync(join(dir, "meta.json"));
    writeFileSync(join(dir, HASHES_FILE), "not json");
    expect(writeSopDir(dir, new Map([["meta.json", "{}\n"]]))).toEqual({ written: ["meta.json"], unchanged: [], kept: [], removed: [] });
  });
});
