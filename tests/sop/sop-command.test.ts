import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../pipeline/cli/main.js";
import { readSopDir } from "../../pipeline/sop/sop-files.js";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";
import { cleanDomains, doc, makeDomain } from "./domain-helper.js";

const roots: string[] = [];
afterAll(() => {
  cleanDomains();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

let out: string[] = [];
beforeEach(() => {
  const cache = mkdtempSync(join(tmpdir(), "foundry-cache-"));
  roots.push(cache);
  vi.stubEnv("FOUNDRY_CACHE_DIR", cache);
  out = [];
  vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => {
    out.push(String(s));
    return true;
  });
});
afterEach(() => {
  process.exitCode = 0;
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

function outDir(): string {
  const d = mkdtempSync(join(tmpdir(), "foundry-sop-out-"));
  roots.push(d);
  return d;
}

const synth = (...args: string[]) => main(["node", "synth", ...args]);
const FILES = [".hashes.json", "documents.json", "meta.json", "problems.json", "rules.json", "workflows/payment-release.json"];
const mtimes = (dir: string) => FILES.map((f) => statSync(join(dir, f)).mtimeMs);

describe("synth sop: the review loop", () => {
  it("writes stable review files, then rewrites nothing when the sources are unchanged", async () => {
    const domain = makeDomain();
    const out1 = outDir();
    expect(await synth("sop", domain, "--out", out1)).toBe(0);
    const sopDir = join(out1, "acme-payments");
    expect(out.join("")).toBe(`${sopDir}: 1 workflow, 6 rules (3 current); 0 errors, 0 for review; 5 written, 0 unchanged, 0 kept, 0 removed\n`);
    const hashes = JSON.parse(readFileSync(join(sopDir, ".hashes.json"), "utf8")) as { files: Record<string, string> };
    expect(Object.keys(hashes.files)).toEqual(FILES.slice(1));
    expect(readFileSync(join(sopDir, "meta.json"), "utf8")).toMatch(/^\{\n {2}"domain": "acme-payments",\n {2}"sources_hash": "[0-9a-f]{64}",\n {2}"strategy": "deterministic"\n\}\n$/);
    const before = mtimes(sopDir);

    out = [];
    expect(await synth("sop", domain, "--out", out1)).toBe(0);
    expect(out.join("")).toBe(`${sopDir}: 1 workflow, 6 rules (3 current); 0 errors, 0 for review; 0 written, 5 unchanged, 0 kept, 0 removed\n`);
    expect(mtimes(sopDir)).toEqual(before);
    expect(readSopDir(sopDir)).toEqual(await extractDomainSop(domain));
  });

  it("keeps a file a person edited, says so, and overwrites it only with --force", async () => {
    const domain = makeDomain();
    const out1 = outDir();
    await synth("sop", domain, "--out", out1);
    const sopDir = join(out1, "acme-payments");
    const rulesFile = join(sopDir, "rules.json");
    const edited = readFileSync(rulesFile, "utf8").replace("Same-day release is possible only before the 16:00 cut-off.", "Same-day release only before 16:00 (reviewed).");
    writeFileSync(rulesFile, edited);
    // A change in the sources, so that other files do change.
    const v42 = join(domain, "docs", "payment-release-v4-2.md");
    writeFileSync(v42, readFileSync(v42, "utf8").replace("Retrieve the payment with", "Look up the payment with"));

    out = [];
    expect(await synth("sop", domain, "--out", out1)).toBe(0);
    expect(out.join("")).toBe(
      `kept ${rulesFile}: edited since it was written (--force overwrites it)\n` +
        `${sopDir}: 1 workflow, 6 rules (3 current); 0 errors, 0 for review; 2 written, 2 unchanged, 1 kept, 0 removed\n`,
    );
    expect(readFileSync(rulesFile, "utf8")).toBe(edited);
    expect(readFileSync(join(sopDir, "workflows", "payment-release.json"), "utf8")).toContain("Look up the payment with `get_payment`");

    out = [];
    await synth("sop", domain, "--out", out1);
    expect(out.join("")).toContain("1 kept");

    out = [];
    expect(await synth("sop", domain, "--out", out1, "--force")).toBe(0);
    expect(out.join("")).toBe(`${sopDir}: 1 workflow, 6 rules (3 current); 0 errors, 0 for review; 1 written, 4 unchanged, 0 kept, 0 removed\n`);
    expect(readFileSync(rulesFile, "utf8")).not.toBe(edited);
  });

  it("removes the file of a workflow that no longer exists, unless it was edited", async () => {
    const domain = makeDomain({ "docs/zz.md": doc({ id: "zz", title: "Extra" }, "## Procedure: Extra {#extra}\n\n1. Look up with `get_payment`.\n") });
    const out1 = outDir();
    await synth("sop", domain, "--out", out1);
    const sopDir = join(out1, "acme-payments");
    expect(existsSync(join(sopDir, "workflows", "extra.json"))).toBe(true);
    rmSync(join(domain, "docs", "zz.md"));
    out = [];
    await synth("sop", domain, "--out", out1, "--json");
    const report = JSON.parse(out.join("")) as { files: Record<string, string[]> };
    expect(report.files).toEqual({ written: ["documents.json", "meta.json"], unchanged: ["problems.json", "rules.json", "workflows/payment-release.json"], kept: [], removed: ["workflows/extra.json"] });
    expect(existsSync(join(sopDir, "workflows", "extra.json"))).toBe(false);
  });

  it("exits 1 when the sources have errors, still writing what extracted cleanly", async () => {
    const domain = makeDomain({ "docs/zz.md": doc({ id: "zz", title: "Bad" }, "## Procedure: Bad {#bad}\n\n1. Release with `relase_payment`.\n") });
    const out1 = outDir();
    expect(await synth("sop", domain, "--out", out1)).toBe(1);
    expect(out.join("")).toBe(
      `${join(domain, "docs/zz.md")}:10: [SOP_UNKNOWN_OPERATION] step 1 of procedure bad names \`relase_payment\`, which looks like an operation but is not one in world.yaml\n` +
        `${join(out1, "acme-payments")}: 2 workflows, 6 rules (3 current); 1 error, 0 for review; 6 written, 0 unchanged, 0 kept, 0 removed\n`,
    );
    const problems = JSON.parse(readFileSync(join(out1, "acme-payments", "problems.json"), "utf8")) as unknown[];
    expect(problems).toEqual([{ code: "SOP_UNKNOWN_OPERATION", document: "zz", file: "docs/zz.md", line: 10, message: "step 1 of procedure bad names `relase_payment`, which looks like an operation but is not one in world.yaml", severity: "error" }]);
  });

  it("reports loader problems too (a binary document) and exits 1", async () => {
    const domain = makeDomain();
    writeFileSync(join(domain, "docs", "zz.md"), Buffer.from([0x41, 0x00]));
    const out1 = outDir();
    expect(await synth("sop", domain, "--out", out1, "--json")).toBe(1);
    const report = JSON.parse(out.join("")) as { ok: boolean; errors: number; problems: Array<{ code: string; file: string; line: number }> };
    expect([report.ok, report.errors, report.problems.map((p) => [p.code, p.file, p.line])]).toEqual([false, 1, [["DOC_BINARY", "docs/zz.md", 1]]]);
  });

  it("has help with examples, and rejects a bad strategy or an unknown domain as usage errors", async () => {
    expect(await synth("sop", "--help")).toBe(0);
    const help = out.join("");
    expect(help).toContain("Usage: synth sop [options] <domain>");
    expect(help).toContain("Examples:\n  synth sop fx-treasury\n");
    const err: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
      err.push(String(s));
      return true;
    });
    expect(await synth("sop", makeDomain(), "--strategy", "magic", "--out", outDir())).toBe(2);
    expect(await synth("sop", "no-such-domain", "--sources", outDir())).toBe(2);
    expect(err.join("")).toContain('[USAGE] --strategy must be `deterministic` or `llm` (got "magic")');
  });

  it("refuses the llm strategy without a configured model", async () => {
    vi.stubEnv("FOUNDRY_MODEL", "deterministic");
    const err: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
      err.push(String(s));
      return true;
    });
    expect(await synth("sop", makeDomain(), "--strategy", "llm", "--out", outDir())).toBe(2);
    expect(err.join("")).toContain("the llm strategy needs a model for the sop-extractor role");
  });
});
