import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { FoundryConfig } from "../core/config.js";
import { writeIfChanged } from "./artifact-files.js";

/** One build run, as `synth resume` finds it. */
export const RunEntry = z.object({
  run: z.string(),
  domains: z.array(z.string()),
  paths: z.object({ sources: z.string(), sop: z.string(), generated: z.string(), cache: z.string() }),
  seed: z.number().int().nullable(),
  review: z.boolean().default(false),
  status: z.enum(["running", "finished", "failed"]),
  /** The resolved configuration the run started with (models, base URL, seed, temperature, …): a resume runs on it. Absent in runs recorded before it was kept. */
  config: FoundryConfig.optional(),
});
export type RunEntry = z.infer<typeof RunEntry>;

/** The runs of a generated folder: `generated/runs/index.json` (run bookkeeping, not an artifact). */
export class RunIndex {
  readonly file: string;
  constructor(runsDir: string) {
    mkdirSync(runsDir, { recursive: true });
    this.file = join(runsDir, "index.json");
  }
  all(): RunEntry[] {
    if (!existsSync(this.file)) return [];
    return z.array(RunEntry).parse(JSON.parse(readFileSync(this.file, "utf8")));
  }
  put(entry: RunEntry): void {
    const runs = this.all().filter((r) => r.run !== entry.run);
    writeIfChanged(this.file, `${JSON.stringify([...runs, entry], null, 2)}\n`);
  }
  get(run: string): RunEntry | undefined {
    return this.all().find((r) => r.run === run);
  }
  /** The most recent run that did not finish. */
  latestUnfinished(): RunEntry | undefined {
    return [...this.all()].reverse().find((r) => r.status !== "finished");
  }
}
