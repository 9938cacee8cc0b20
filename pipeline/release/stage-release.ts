import { chmodSync, existsSync, mkdirSync, readdirSync, lstatSync, renameSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { FoundryError } from "../core/errors.js";
import type { PlannedFile } from "./collect-domain.js";
import { removeTree } from "./remove-tree.js";
import { pidAlive } from "../build/build-lock.js";

import { STAGING_FOLDER } from "../../validation/audit/release-layout.js";

/** Remove the staging folders under `parent` whose export process is gone (a killed `synth release`); returns their names. */
export function removeStaleStaging(parent: string): string[] {
  if (!existsSync(parent)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(parent).sort()) {
    const m = STAGING_FOLDER.exec(name);
    if (!m || pidAlive(Number(m[2]))) continue;
    removeTree(join(parent, name));
    removed.push(name);
  }
  return removed;
}

/** Points where a test (or a caller) can look into, or break, an export while it runs. */
export interface StageHooks {
  /** Called after each file is written into the staging folder (release-relative path). */
  afterWrite?: (path: string) => void;
  /** Called with the complete staging folder before it is published; throw to refuse it. */
  beforePublish?: (stagingDir: string) => void;
}

/** Make every file 0444 and every folder below `dir` 0555 (deepest first). */
function freeze(dir: string): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (lstatSync(p).isDirectory()) {
      freeze(p);
      chmodSync(p, 0o555);
    } else chmodSync(p, 0o444);
  }
}

/** Error for a version folder that already exists: releases are never overwritten. */
export function releaseExists(target: string): FoundryError {
  return new FoundryError("RELEASE_EXISTS", "this release version already exists; releases are never overwritten (choose a new --version)", { file: target });
}

/**
 * Write `files` as the release folder `target`, all or nothing: everything goes into a hidden
 * sibling staging folder first, is frozen read-only, and only then renamed to `target` in one step.
 * On any failure the staging folder is removed and `target` never appears.
 */
export function publishRelease(target: string, files: readonly PlannedFile[], hooks: StageHooks = {}): void {
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  removeStaleStaging(parent);
  // The process id keeps two exports of the same version from sharing a staging folder.
  const staging = join(parent, `.${basename(target)}.partial-${process.pid}`);
  removeTree(staging);
  try {
    mkdirSync(staging);
    for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const file = join(staging, ...f.path.split("/"));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, f.bytes(), { flag: "wx" });
      hooks.afterWrite?.(f.path);
    }
    hooks.beforePublish?.(staging);
    freeze(staging);
    if (existsSync(target)) throw releaseExists(target);
    renameSync(staging, target);
    chmodSync(target, 0o555);
  } catch (e) {
    removeTree(staging);
    throw e;
  }
}
