import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository root: the nearest folder above this module that holds package.json. The same
 * folder whether the TypeScript runs (pipeline/core/) or its compiled JavaScript does
 * (build/js/<hash>/pipeline/core/, which has no package.json; see bin/compile.mjs), so files found
 * from here (package.json, node_modules, build/native, the sources the code fingerprint hashes)
 * are the repository's.
 */
export const REPO_ROOT: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
})();
