import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/synth.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Run `synth` as a user would (a real process), from the repository root. */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, encoding: "utf8", timeout: opts.timeoutMs ?? 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
