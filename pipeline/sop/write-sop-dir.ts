import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256, stableJson } from "../core/canonical-json.js";

/** Where the hashes of the files as last written are kept. */
export const HASHES_FILE = ".hashes.json";

/** What a write did to each file (paths relative to the SOP folder, sorted). */
export interface SopWriteReport {
  written: string[];
  unchanged: string[];
  /** Edited by a person since they were written (or not written by the foundry): left as they are. */
  kept: string[];
  /** Written before, no longer produced, unedited: deleted. */
  removed: string[];
}

function readHashes(dir: string): Record<string, string> {
  try {
    const data = JSON.parse(readFileSync(join(dir, HASHES_FILE), "utf8")) as { files?: Record<string, string> };
    return data.files && typeof data.files === "object" ? data.files : {};
  } catch {
    return {};
  }
}

/**
 * Write review files into `dir`, keeping a person's edits: a file whose current content differs
 * from what was last written (its hash in `.hashes.json`) is kept unless `force`; a file whose
 * content would not change is not touched. `.hashes.json` records each file's hash as written.
 */
export function writeSopDir(dir: string, files: ReadonlyMap<string, string>, opts: { force?: boolean } = {}): SopWriteReport {
  const report: SopWriteReport = { written: [], unchanged: [], kept: [], removed: [] };
  const recorded = readHashes(dir);
  const next: Record<string, string> = {};
  const write = (rel: string, text: string) => {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  for (const rel of [...files.keys()].sort()) {
    const text = files.get(rel) as string;
    const hash = sha256(text);
    const file = join(dir, rel);
    if (existsSync(file)) {
      const current = sha256(readFileSync(file));
      if (current === hash) {
        report.unchanged.push(rel);
        next[rel] = hash;
        continue;
      }
      if (recorded[rel] !== current && !opts.force) {
        report.kept.push(rel);
        // Keep the hash as written (if any), so the file still counts as edited next time.
        if (recorded[rel] !== undefined) next[rel] = recorded[rel] as string;
        continue;
      }
    }
    write(rel, text);
    report.written.push(rel);
    next[rel] = hash;
  }
  for (const rel of Object.keys(recorded).sort()) {
    if (files.has(rel)) continue;
    const file = join(dir, rel);
    if (!existsSync(file)) continue;
    if (sha256(readFileSync(file)) === recorded[rel] || opts.force) {
      rmSync(file);
      report.removed.push(rel);
    } else {
      report.kept.push(rel);
      next[rel] = recorded[rel] as string;
    }
  }
  report.kept.sort();
  const hashesText = stableJson({ files: next });
  const hashesFile = join(dir, HASHES_FILE);
  if (!existsSync(hashesFile) || readFileSync(hashesFile, "utf8") !== hashesText) write(HASHES_FILE, hashesText);
  return report;
}
