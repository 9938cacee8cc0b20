import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { FoundryError } from "../core/errors.js";

/**
 * A release argument as a folder: a path to the release folder, or `NAME@X.Y.Z` looked up under
 * `root` (default `generated/releases`).
 */
export function resolveReleaseDir(arg: string, root = join("generated", "releases")): string {
  if (existsSync(arg) && statSync(arg).isDirectory()) return arg;
  const m = /^([a-z0-9][a-z0-9_-]*)@(\d+\.\d+\.\d+)$/.exec(arg);
  if (m) {
    const dir = join(root, m[1] as string, m[2] as string);
    if (existsSync(dir)) return dir;
    throw new FoundryError("RELEASE_NOT_FOUND", `no release ${arg}`, { file: dir });
  }
  throw new FoundryError("RELEASE_NOT_FOUND", "no such release folder (give its path, or NAME@X.Y.Z)", { file: arg });
}
