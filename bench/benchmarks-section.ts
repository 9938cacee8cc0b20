import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BENCH_FILE = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));

/**
 * Replace one benchmark's section of BENCHMARKS.md (between its `<!-- name:start -->` and
 * `<!-- name:end -->` markers), or append it; the other sections are left as they are.
 * `body` includes both markers.
 */
export function writeBenchmarksSection(start: string, end: string, body: string): void {
  const current = existsSync(BENCH_FILE) ? readFileSync(BENCH_FILE, "utf8") : "# Benchmarks\n";
  const s = current.indexOf(start);
  const e = current.indexOf(end);
  const next = s >= 0 && e > s ? `${current.slice(0, s)}${body}${current.slice(e + end.length)}` : `${current.trimEnd()}\n\n${body}\n`;
  writeFileSync(BENCH_FILE, next);
  console.log(`updated ${BENCH_FILE}`);
}
