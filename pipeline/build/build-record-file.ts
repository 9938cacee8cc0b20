import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256, stableJson } from "../core/canonical-json.js";
import { BuildRecord } from "../schemas/index.js";
import { writeIfChanged } from "./artifact-files.js";

/** The build record's file name inside `generated/<domain>/`. */
export const BUILD_RECORD_FILE = "build-record.json";

/** Files of `generated/<domain>/` that are bookkeeping, not release inputs: never hashed into the record. */
const NOT_RECORDED = new Set([BUILD_RECORD_FILE, "report.json"]);

/** sha256 of every release input under a generated domain folder (relative POSIX paths), skipping dot folders (the verify stage's staging area). */
export function hashGeneratedFiles(dir: string, rel = "", out: Record<string, string> = {}): Record<string, string> {
  if (!existsSync(join(dir, rel))) return out;
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!e.name.startsWith(".")) hashGeneratedFiles(dir, path, out);
    } else if (e.isFile() && !NOT_RECORDED.has(path) && !e.name.endsWith(".tmp")) out[path] = sha256(readFileSync(join(dir, path)));
  }
  return out;
}

/** Write `generated/<domain>/build-record.json` for the files now in `dir`; true when it changed. */
export function writeBuildRecord(dir: string, record: Omit<BuildRecord, "files">): boolean {
  return writeIfChanged(join(dir, BUILD_RECORD_FILE), stableJson(BuildRecord.parse({ ...record, files: hashGeneratedFiles(dir) })));
}
