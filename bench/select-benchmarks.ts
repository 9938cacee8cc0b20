import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A top-level `export` makes a file a helper module that benchmarks import, not a benchmark. */
const EXPORTS = /^export\s/m;

/**
 * The benchmark scripts among the files of bench/: `.ts` files that export nothing (scripts run for
 * their output and exit status), apart from the runner itself. Helper modules (section writer,
 * corpus generator, this selection) export what benchmarks import and are never counted.
 */
export function selectBenchmarks(files: ReadonlyArray<{ name: string; text: string }>, runner = "run-all.ts"): string[] {
  return files
    .filter((f) => f.name.endsWith(".ts") && f.name !== runner && !EXPORTS.test(f.text))
    .map((f) => f.name)
    .sort();
}

/** The benchmark scripts of a folder (default: bench/). */
export function benchmarkScripts(dir: string = new URL(".", import.meta.url).pathname): string[] {
  return selectBenchmarks(readdirSync(dir).filter((n) => n.endsWith(".ts")).map((name) => ({ name, text: readFileSync(join(dir, name), "utf8") })));
}
