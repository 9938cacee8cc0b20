import { describe, expect, it } from "vitest";
import { benchmarkScripts, selectBenchmarks } from "../../bench/select-benchmarks.js";

describe("npm run bench: which files are benchmarks", () => {
  it("counts only the benchmark scripts of bench/, not the helper modules they import", () => {
    // benchmarks-section.ts (the BENCHMARKS.md section writer) and ingest-corpus.ts (the corpus
    // generator) export helpers; the runner used to count the section writer as a benchmark that "met" its target.
    expect(benchmarkScripts()).toEqual(["build.ts", "checks-throughput.ts", "draft-world.ts", "evaluator-latency.ts", "evaluator.ts", "ingest.ts", "llm-queue.ts", "queue-throughput.ts", "release-replay.ts", "scale-build.ts", "scale-discovery.ts", "scale-evaluate.ts", "scale-release.ts", "startup.ts", "world-replay.ts"]);
  });

  it("decides by content: a file that exports is a helper, whatever its name; the runner and non-TypeScript files are left out", () => {
    const files = [
      { name: "run-all.ts", text: "const scripts = [];\n" },
      { name: "zeta.ts", text: "// measures zeta\nconsole.log(1);\nprocess.exitCode = 0;\n" },
      { name: "alpha.ts", text: "import { helper } from './table-writer.js';\nhelper();\n" },
      { name: "table-writer.ts", text: "/** Writes a table. */\nexport function helper(): void {}\n" },
      { name: "fixtures-bench.ts", text: "export const rows = [1, 2];\n" },
      { name: "notes.md", text: "# notes\n" },
    ];
    expect(selectBenchmarks(files)).toEqual(["alpha.ts", "zeta.ts"]);
  });
});
