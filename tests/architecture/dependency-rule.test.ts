import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : n.endsWith(".ts") ? [p] : [];
  });
}

/** Repository-relative targets of a file's relative imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)].map((m) => m[1] as string);
  return specs.map((s) => relative(ROOT, resolve(dirname(file), s)));
}

// pipeline/backend holds the build's postgres side (it imports the graph): the evaluator reaches it only through EpisodeRunner.
const FORBIDDEN = ["pipeline/graph", "pipeline/nodes", "pipeline/agents", "pipeline/build", "pipeline/backend"];

describe("the dependency rule", () => {
  it.each(["validation", "pipeline/world", "pipeline/evaluate", "pipeline/show"])("%s never imports the synthesis graph, its nodes, agents or build runner", (folder) => {
    const offending = tsFiles(join(ROOT, folder)).flatMap((f) =>
      importsOf(f)
        .filter((t) => FORBIDDEN.some((x) => t === x || t.startsWith(`${x}/`)))
        .map((t) => `${relative(ROOT, f)} → ${t}`),
    );
    expect(offending).toEqual([]);
  });

  it("the check is real: it sees the imports of a file that has some", () => {
    expect(importsOf(join(ROOT, "pipeline/nodes/solve.ts"))).toContain("pipeline/build/services.js");
  });
});
