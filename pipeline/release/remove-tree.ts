import { chmodSync, existsSync, lstatSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** Give back write permission to every folder under `dir` (releases are 0555), so it can be removed. */
function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (lstatSync(p).isDirectory()) makeWritable(p);
  }
}

/** Remove a (possibly read-only) folder tree; no-op when it does not exist. */
export function removeTree(dir: string): void {
  if (!existsSync(dir)) return;
  if (lstatSync(dir).isDirectory()) makeWritable(dir);
  rmSync(dir, { recursive: true, force: true });
}
