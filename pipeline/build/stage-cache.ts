import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../core/canonical-json.js";
import { PIPELINE_VERSION } from "../core/version.js";

/**
 * Content-addressed outputs of graph stages: the key holds everything that changes the output
 * (stage, its inputs' hashes, strategy, pipeline version), so a stage whose inputs did not change
 * does no work. Writes go to a temporary file and are renamed, so a crash never leaves a torn entry.
 */
export class StageCache {
  readonly dir: string;
  hits = 0;
  misses = 0;

  constructor(dir: string) {
    this.dir = dir;
  }

  key(stage: string, inputs: unknown): string {
    return contentHash({ v: 1, pipeline: PIPELINE_VERSION, stage, inputs });
  }

  get<T>(stage: string, key: string): T | undefined {
    const file = join(this.dir, stage, `${key}.json`);
    if (!existsSync(file)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return JSON.parse(readFileSync(file, "utf8")) as T;
  }

  put(stage: string, key: string, value: unknown): void {
    const dir = join(this.dir, stage);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${key}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
  }

  /** Cached value of `stage` for `inputs`, computing and storing it on a miss. */
  async through<T>(stage: string, inputs: unknown, compute: () => Promise<T>): Promise<{ value: T; hit: boolean }> {
    const key = this.key(stage, inputs);
    const cached = this.get<T>(stage, key);
    if (cached !== undefined) return { value: cached, hit: true };
    const value = await compute();
    this.put(stage, key, value);
    return { value, hit: false };
  }
}
