import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Write a file only when its content differs, through a temporary file and a rename: idempotent
 * (a resumed node writes the same bytes again without touching the file) and never torn.
 * Returns true when the file changed.
 */
export function writeIfChanged(file: string, data: string | Uint8Array): boolean {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
  if (existsSync(file) && readFileSync(file).equals(bytes)) return false;
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
  return true;
}
