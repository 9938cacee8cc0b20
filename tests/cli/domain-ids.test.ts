import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const CLEAN = join(import.meta.dirname, "..", "fixtures", "check-sources", "clean");
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A working copy with `sources/scratch/` (a valid domain folder) and nothing else. */
function workingCopy(): string {
  const root = mkdtempSync(join(tmpdir(), "domain-ids-"));
  made.push(root);
  mkdirSync(join(root, "sources"));
  cpSync(CLEAN, join(root, "sources", "scratch"), { recursive: true });
  return root;
}

function filesUnder(root: string): string[] {
  return (readdirSync(root, { recursive: true, withFileTypes: true }) as Array<{ parentPath: string; name: string; isFile(): boolean }>)
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

const message = (id: string, where: string) =>
  `synth: ${where}: [USAGE] '${id}' is not a domain id: use lowercase letters, digits, '-' or '_' (a domain id is a folder name, never a path) (got ${JSON.stringify(id)})\n`;

describe("domain ids are validated on every command that takes one", () => {
  it("synth build --domains ../sources/scratch exits 2 naming the id, and writes nothing", () => {
    const root = workingCopy();
    const before = filesUnder(root);
    const r = runCli(["build", "--domains", "../sources/scratch", "--sources", "sources", "--sop", "sop", "--generated", "generated"], { cwd: root, timeoutMs: 120_000 });
    expect(r.stderr).toBe(message("../sources/scratch", "--domains"));
    expect(r.code).toBe(2);
    expect(filesUnder(root)).toEqual(before);
  });

  it("synth build refuses an id listed twice", () => {
    const root = workingCopy();
    const r = runCli(["build", "--domains", "scratch,scratch", "--sources", "sources", "--sop", "sop", "--generated", "generated"], { cwd: root });
    expect(r.stderr).toBe(`synth: --domains: [USAGE] domain 'scratch' is listed twice (got "scratch")\n`);
    expect(r.code).toBe(2);
    expect(filesUnder(root)).toEqual(filesUnder(join(root, "sources")).map((f) => join("sources", f)));
  });

  it("synth release --domains ../x exits 2 before anything is staged", () => {
    const root = workingCopy();
    const r = runCli(["release", "bench", "--version", "1.0.0", "--domains", "../x", "--out", "out", "--generated", "generated", "--sources", "sources"], { cwd: root });
    expect(r.stderr).toBe(message("../x", "--domains"));
    expect(r.code).toBe(2);
    expect(readdirSync(root)).toEqual(["sources"]);
  });

  it("synth sop with an id that is a path exits 2", () => {
    const root = workingCopy();
    // A path that exists is a domain folder to `synth sop`, so the path must lead nowhere: one
    // named after this temporary copy, which no other process has made beside it.
    const arg = `../${basename(root)}-scratch`;
    const r = runCli(["sop", arg, "--sources", "sources", "--out", "sop"], { cwd: root });
    expect(r.stderr).toBe(message(arg, "domain"));
    expect(r.code).toBe(2);
    expect(readdirSync(root)).toEqual(["sources"]);
  });

  it("synth check-sources refuses a folder whose name is not a domain id", () => {
    const root = workingCopy();
    cpSync(CLEAN, join(root, "Bad Name"), { recursive: true });
    const r = runCli(["check-sources", "sources/scratch", "Bad Name"], { cwd: root });
    expect(r.stderr).toBe(message("Bad Name", "dirs"));
    expect(r.code).toBe(2);
  });
});
