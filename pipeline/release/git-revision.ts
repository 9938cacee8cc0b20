import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * `git rev-parse HEAD` of the folder the sources live in, or `unknown` outside a git work tree.
 * It is the one export input that changes with every commit, so callers that must reproduce a
 * release byte for byte (tests, the reproducibility check) pin it instead.
 */
export function gitRevision(dir: string): string {
  if (!existsSync(dir)) return "unknown";
  const r = spawnSync("git", ["rev-parse", "HEAD"], { cwd: dir, encoding: "utf8", timeout: 10_000 });
  const out = r.status === 0 ? r.stdout.trim() : "";
  return /^[0-9a-f]{40}$/.test(out) ? out : "unknown";
}
