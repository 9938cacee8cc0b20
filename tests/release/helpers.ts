import { chmodSync, cpSync, lstatSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { sha256, stableJson } from "../../pipeline/core/canonical-json.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import { removeTree } from "../../pipeline/release/remove-tree.js";
import { main } from "../../pipeline/cli/main.js";

const made: string[] = [];

/** A fresh temporary folder, removed by `cleanupTemp` (read-only releases included). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  made.push(dir);
  return dir;
}

export function cleanupTemp(): void {
  for (const d of made.splice(0)) removeTree(d);
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (lstatSync(p).isDirectory()) makeWritable(p);
    else chmodSync(p, 0o644);
  }
}

/** A writable copy of a release folder, to tamper with. */
export function writableCopy(release: string): string {
  const dir = join(tempDir("tamper"), "release");
  cpSync(release, dir, { recursive: true });
  makeWritable(dir);
  return dir;
}

/** Every path under `dir` with its mode and content hash: equal fingerprints mean nothing changed. */
export function fingerprint(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = rel ? join(dir, rel) : dir;
    const st = lstatSync(abs);
    if (st.isDirectory()) {
      out.push(`${rel}/ ${(st.mode & 0o777).toString(8)}`);
      for (const name of readdirSync(abs).sort()) walk(rel ? `${rel}/${name}` : name);
    } else out.push(`${rel} ${(st.mode & 0o777).toString(8)} ${sha256(readFileSync(abs))}`);
  };
  walk("");
  return out;
}

/** Run `synth` in this process (fast); returns the exit code and what it printed. */
export async function runMain(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    const code = await main(["node", "synth", ...args]);
    return { code, stdout, stderr };
  } finally {
    process.exitCode = undefined;
    out.mockRestore();
    err.mockRestore();
  }
}

/** Re-hash one file into the manifest (and fix the root hash), as a careful forger would. */
export function rehash(dir: string, file: string): void {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { files: Record<string, string>; root_hash: string };
  manifest.files[file] = sha256(readFileSync(join(dir, file)));
  manifest.root_hash = manifestRootHash(manifest.files);
  writeFileSync(join(dir, "manifest.json"), stableJson(manifest));
}

