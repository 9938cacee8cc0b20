import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../core/canonical-json.js";
import { PIPELINE_VERSION } from "../core/version.js";

/** Version of the key layout; bump it when what goes into a key changes. */
export const STAGE_KEY_VERSION = 2;

/** The code fingerprint of a stage (see stage-code.ts): part of every key, so a code change misses. */
export type StageCode = (stage: string) => string;

/**
 * Content-addressed outputs of graph stages: the key holds everything that changes the output
 * (stage, the fingerprint of the code the stage runs, its inputs' hashes, the strategy and its
 * settings as the node passes them, pipeline version), so a stage whose code and inputs did not
 * change does no work. Writes go to a temporary file and are renamed, so a crash never leaves a torn entry.
 */
export class StageCache {
  readonly dir: string;
  readonly code: StageCode;
  hits = 0;
  misses = 0;

  constructor(dir: string, code: StageCode) {
    this.dir = dir;
    this.code = code;
  }

  /** The key of `stage` for `inputs`: one canonical object, so adding a field is adding a property. */
  key(stage: string, inputs: unknown): string {
    return contentHash({ v: STAGE_KEY_VERSION, pipeline: PIPELINE_VERSION, stage, code: this.code(stage), inputs });
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
