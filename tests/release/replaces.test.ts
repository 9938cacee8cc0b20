import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { ReleaseManifest } from "../../pipeline/schemas/index.js";
import { buildReleaseFixture, DOMAIN, type ReleaseFixture } from "./fixture.js";
import { cleanupTemp, tempDir } from "./helpers.js";

let fx: ReleaseFixture;
beforeAll(() => {
  fx = buildReleaseFixture(tempDir("replaces-fx"));
});
afterAll(cleanupTemp);

const manifestOf = (dir: string) => ReleaseManifest.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
const firstLines = (dir: string) => readFileSync(join(dir, "README.md"), "utf8").split("\n").slice(0, 3).join("\n");

describe("a release names the version it replaces", () => {
  it("defaults to the newest older version beside it, and says so in the manifest and the datasheet", () => {
    const outRoot = join(tempDir("replaces-out"), "releases");
    const first = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot, revision: "r" });
    expect(first.manifest.replaces).toBeNull();
    expect(firstLines(first.dir)).toBe("# demo 1.0.0\n\nThis is the first version of this release.");
    exportRelease({ name: "demo", version: "1.2.0", domains: [DOMAIN], ...fx, outRoot, revision: "r" });
    const between = exportRelease({ name: "demo", version: "1.1.0", domains: [DOMAIN], ...fx, outRoot, revision: "r" });
    expect(manifestOf(between.dir).replaces).toBe("1.0.0");
    expect(firstLines(between.dir)).toBe("# demo 1.1.0\n\nThis version replaces demo 1.0.0, which stays in the project's version history; `synth diff` compares the two.");
  });

  it("takes an explicit version when the older one is no longer in the tree, and refuses one that is not older", () => {
    const outRoot = join(tempDir("replaces-explicit"), "releases");
    const r = exportRelease({ name: "demo", version: "2.0.0", replaces: "1.4.0", domains: [DOMAIN], ...fx, outRoot, revision: "r" });
    expect(manifestOf(r.dir).replaces).toBe("1.4.0");
    let error: unknown;
    try {
      exportRelease({ name: "demo", version: "2.1.0", replaces: "2.1.0", domains: [DOMAIN], ...fx, outRoot, revision: "r" });
    } catch (e) {
      error = e;
    }
    expect(FoundryError.is(error) && error.code).toBe("USAGE");
    expect((error as Error).message).toContain("older than 2.1.0");
  });
});
