import { writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { stableJson } from "../../core/canonical-json.js";
import type { EvaluationResult } from "../../schemas/evaluation-result.js";

/** File name of the summary inside an evaluation folder. */
export const SUMMARY_FILE = "summary.json";

/** The bytes of summary.json: stable JSON (sorted keys, two-space indent, final newline). */
export function summaryBytes(summary: EvaluationResult): string {
  return stableJson(summary);
}

/** Write `summary.json` into `dir` atomically (a temporary file renamed into place); returns its path. */
export function writeSummary(dir: string, summary: EvaluationResult): string {
  const path = join(dir, SUMMARY_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, summaryBytes(summary));
  renameSync(tmp, path);
  return path;
}
