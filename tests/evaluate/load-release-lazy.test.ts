import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { cleanupTemp, writableCopy } from "../release/helpers.js";

const RELEASE = join(process.cwd(), "generated", "releases", "sample", "1.7.0");
afterAll(cleanupTemp);

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return FoundryError.is(e) ? `${e.code}: ${e.message}` : String(e);
  }
  return "no error";
}

describe("the evaluator reads golden traces and configurations on demand", () => {
  it("reads each from the release when asked, so a file changed after loading is refused then, not served from memory", () => {
    const copy = writableCopy(RELEASE);
    const release = loadEvalRelease(copy);
    const t = release.tasks.find((x) => x.task.id === "fx-treasury-001")!;
    const golden = join(copy, "domains/fx-treasury/golden/fx-treasury-001.json");
    const config = join(copy, "domains/fx-treasury/env-configs/fx-treasury-001.json");
    // Changed on disk after loading: the manifest's sha256 no longer matches what is read.
    writeFileSync(golden, readFileSync(golden, "utf8").replace('"golden"', '"golden" '));
    writeFileSync(config, `${readFileSync(config, "utf8")} `);
    expect(codeOf(() => t.golden)).toMatch(/^RELEASE_CHANGED: /);
    expect(codeOf(() => t.env_config!())).toMatch(/^RELEASE_CHANGED: /);
    // Another task's files are untouched and read as before.
    const other = release.tasks.find((x) => x.task.id === "fx-treasury-002")!;
    expect(other.golden.task).toBe("fx-treasury-002");
    expect(other.env_config!().task).toBe("fx-treasury-002");
  }, 120_000);
});
