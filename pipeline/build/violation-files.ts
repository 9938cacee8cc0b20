import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { stableJson } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { z } from "zod";
import type { Trace } from "../schemas/index.js";
import { writeIfChanged } from "./artifact-files.js";

/** Where the verify stage leaves the violation traces of its last gate run per task, for collect. */
export function stagedViolationsDir(generatedDir: string, domain: string, task: string): string {
  return join(generatedDir, domain, ".verify", "violations", task);
}

/**
 * Store the violation traces of one task's gate run (replacing those of an earlier run of the same
 * task, e.g. before a repair). Idempotent: a resumed verify writes the same bytes again.
 */
export function stageViolations(generatedDir: string, domain: string, task: string, traces: ReadonlyArray<{ label: string; trace: Trace }>): void {
  const dir = stagedViolationsDir(generatedDir, domain, task);
  const keep = new Set(traces.map((t) => `${t.label}.json`));
  for (const t of traces) writeIfChanged(join(dir, `${t.label}.json`), stableJson(t.trace));
  if (existsSync(dir)) for (const f of readdirSync(dir)) if (!keep.has(f)) rmSync(join(dir, f));
}

/**
 * What collect checks of a staged file: whose trace it is. The file was written by stageViolations
 * from a trace the gates had just judged (schema-checked there, and again by every release export
 * and audit); parsing all of it again here cost a tenth of a no-op rebuild.
 */
const StagedHeader = z.object({ task: z.string(), role: z.string() });

/** The staged violation traces of a task, by label; exactly `labels` must be there (the verify stage that judged them wrote them). */
export function readStagedViolations(generatedDir: string, domain: string, task: string, labels: readonly string[]): Array<{ label: string; text: string }> {
  const dir = stagedViolationsDir(generatedDir, domain, task);
  const present = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort() : [];
  const want = [...labels].sort();
  if (present.join(",") !== want.join(",")) {
    throw new FoundryError("BUILD_VIOLATIONS_MISSING", `the verify stage left violation traces [${present.join(", ")}] for task ${task}; its validation entry lists [${want.join(", ")}]`, { file: dir });
  }
  return want.map((label) => {
    const text = readFileSync(join(dir, `${label}.json`), "utf8");
    const trace = StagedHeader.parse(JSON.parse(text));
    if (trace.task !== task || trace.role !== "violation") throw new FoundryError("BUILD_VIOLATIONS_MISSING", `staged file holds a ${trace.role} trace of ${trace.task}`, { file: join(dir, `${label}.json`) });
    return { label, text };
  });
}
