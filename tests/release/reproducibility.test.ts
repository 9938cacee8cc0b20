import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkReproducible } from "../../pipeline/release/reproducibility.js";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { loadWorld } from "../../pipeline/world/load-world.js";
import { applyOverlay, buildBaseState } from "../../pipeline/world/build-state.js";
import { buildReleaseFixture, DOMAIN } from "./fixture.js";
import { cleanupTemp, tempDir } from "./helpers.js";

afterAll(cleanupTemp);

describe("reproducibility", () => {
  it("two exports of the same inputs have the same root hash (violation traces produced at export included)", () => {
    const fx = buildReleaseFixture(tempDir("repro"), "a", "operators");
    const r = checkReproducible({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, revision: "pinned" });
    expect(r.ok).toBe(true);
    expect(r.root_hashes[0]).toBe(r.root_hashes[1]);
    expect(r.differing).toEqual([]);
  });

  it("two fixture builds from the same world and seed give the same database bytes, hence the same release", () => {
    const f1 = buildReleaseFixture(tempDir("repro1"));
    const f2 = buildReleaseFixture(tempDir("repro2"));
    const db = (f: { generatedDir: string }) => readFileSync(join(f.generatedDir, DOMAIN, "initial-state.sqlite"));
    expect(db(f1).equals(db(f2))).toBe(true);
    const out = tempDir("repro-out");
    const m1 = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...f1, outRoot: join(out, "one"), revision: "pinned" }).manifest;
    const m2 = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...f2, outRoot: join(out, "two"), revision: "pinned" }).manifest;
    expect(m1.root_hash).toBe(m2.root_hash);
  });

  it("the revision is the only input that changes with a commit: it changes the datasheet and nothing else", () => {
    const fx = buildReleaseFixture(tempDir("repro-rev"));
    const out = tempDir("repro-rev-out");
    const m1 = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(out, "one"), revision: "aaa" }).manifest;
    const m2 = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(out, "two"), revision: "bbb" }).manifest;
    expect(Object.keys(m1.files).filter((f) => m1.files[f] !== m2.files[f])).toEqual(["README.md"]);
    expect([m1.pipeline.revision, m2.pipeline.revision]).toEqual(["aaa", "bbb"]);
  });

  it("db.serialize() of the initial state is byte-stable for the same world, seed and overlay", () => {
    const world = loadWorld(join(import.meta.dirname, "../fixtures/world/world.yaml"), "world.yaml");
    const s1 = buildBaseState(world, { seed: 7 });
    const s2 = buildBaseState(world, { seed: 7 });
    expect(s1.buffer.equals(s2.buffer)).toBe(true);
    expect(s1.buffer.equals(buildBaseState(world, { seed: 8 }).buffer)).toBe(false);
    const overlay = [{ table: "payments", op: "upsert" as const, row: { payment_id: "PAY-00001", memo: "x" } }];
    expect(applyOverlay(s1, world, overlay).buffer.equals(applyOverlay(s2, world, overlay).buffer)).toBe(true);
  });
});
