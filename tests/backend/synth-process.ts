import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/synth.js", import.meta.url));
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A `synth` process started in the background, with its output collected. */
export interface SynthProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number>;
}

/** Start `synth ARGS` as a real process (from `cwd`, default the repository root). */
export function startSynth(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SynthProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number>((resolve) => child.on("exit", (code, signal) => resolve(code ?? (signal ? -1 : 0))));
  return { child, output: () => out, exited };
}

/** Every file under `dir` (relative path → bytes), for byte-for-byte comparison of two folders. */
export function folderBytes(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out[rel] = readFileSync(p).toString("base64");
    }
  };
  walk(dir);
  return out;
}

/** Wait until `check` is true (polled), or fail after `ms` naming `what`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
