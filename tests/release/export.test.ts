import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { SHAPING_PACKAGES } from "../../pipeline/release/package-versions.js";
import { ReleaseManifest } from "../../pipeline/schemas/index.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { sha256 } from "../../pipeline/core/canonical-json.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import { buildReleaseFixture, DOMAIN, type ReleaseFixture } from "./fixture.js";
import { writeBuildRecord } from "../../pipeline/build/build-record-file.js";
import { cleanupTemp, fingerprint, tempDir } from "./helpers.js";

const PKG = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string; dependencies: Record<string, string> };

let fx: ReleaseFixture;
let outRoot: string;
let dir: string;

beforeAll(() => {
  fx = buildReleaseFixture(tempDir("release-fx"));
  outRoot = join(tempDir("release-out"), "releases");
  dir = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot, revision: "rev-test" }).dir;
});
afterAll(cleanupTemp);

function caught(f: () => unknown): FoundryError {
  try {
    f();
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a FoundryError");
}

describe("exportRelease", () => {
  it("writes the release layout with only the released tasks, every file hashed in the manifest", () => {
    expect(dir).toBe(join(outRoot, "demo", "1.0.0"));
    const manifest = ReleaseManifest.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
    const d = `domains/${DOMAIN}`;
    expect(Object.keys(manifest.files).filter((f) => !f.startsWith("schemas/"))).toEqual([
      "README.md",
      `${d}/docs/liquidity-policy-v1.md`,
      `${d}/docs/liquidity-policy-v2.md`,
      `${d}/docs/payment-release-procedure.md`,
      `${d}/documents.json`,
      `${d}/domain.json`,
      `${d}/env-configs/move-funds.json`,
      `${d}/env-configs/release-payment.json`,
      expect.stringMatching(new RegExp(`^${d}/env-configs/shared/[0-9a-f]{64}\\.json$`)),
      `${d}/golden/move-funds.json`,
      `${d}/golden/release-payment.json`,
      `${d}/initial-state.sqlite`,
      `${d}/tasks/move-funds.json`,
      `${d}/tasks/release-payment.json`,
      `${d}/violations/move-funds/do_nothing.json`,
      `${d}/violations/move-funds/drop_approval.json`,
      `${d}/violations/release-payment/do_nothing.json`,
      `${d}/violations/release-payment/touch_protected.json`,
      `${d}/world.json`,
      `${d}/world.yaml`,
      `validation/${DOMAIN}.json`,
    ]);
    expect(Object.keys(manifest.files).filter((f) => f.startsWith("schemas/"))).toHaveLength(14);
    for (const [file, hash] of Object.entries(manifest.files)) expect(sha256(readFileSync(join(dir, file))), file).toBe(hash);
    expect(manifest.root_hash).toBe(manifestRootHash(manifest.files));
    expect(manifest.counts).toEqual({ domains: 1, documents: 3, tasks: 2, checks: 8, by_domain: { [DOMAIN]: { industry: "Business & Enterprise", documents: 3, tasks: 2 } } });
    expect(manifest.seed).toBe(7);
    expect(manifest.pipeline).toEqual({ version: PKG.version, revision: "rev-test" });
    expect(manifest.models["user-sim"]).toBe("deterministic");
    expect(Object.keys(manifest.models)).toHaveLength(10);
  });

  it("records the exact installed versions of the packages that shape the output", () => {
    const manifest = ReleaseManifest.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
    for (const p of SHAPING_PACKAGES) expect(manifest.packages[p], p).toBe(PKG.dependencies[p]);
    expect(manifest.packages.sqlite).toMatch(/^3\.\d+\.\d+$/);
  });

  it("copies the documents and the database byte for byte and holds no absolute path", () => {
    const gen = join(fx.generatedDir, DOMAIN);
    expect(readFileSync(join(dir, "domains", DOMAIN, "initial-state.sqlite")).equals(readFileSync(join(gen, "initial-state.sqlite")))).toBe(true);
    expect(readFileSync(join(dir, "domains", DOMAIN, "docs", "payment-release-procedure.md"), "utf8")).toBe(readFileSync(join(fx.sourcesDir, DOMAIN, "docs", "payment-release-procedure.md"), "utf8"));
    for (const line of fingerprint(dir)) {
      const file = line.split(" ")[0] as string;
      if (/\.(json|md)$/.test(file)) expect(readFileSync(join(dir, file), "utf8"), file).not.toContain(outRoot.split("/releases")[0]);
    }
  });

  it("makes files 0444 and folders 0555", () => {
    const modes = new Set(fingerprint(dir).map((l) => l.split(" ")[1]));
    expect([...modes].sort()).toEqual(["444", "555"]);
    expect((statSync(join(dir, "domains")).mode & 0o777).toString(8)).toBe("555");
  });

  it("writes a datasheet that states contents, build, validation and limitations", () => {
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme.split("\n")[0]).toBe("# demo 1.0.0");
    expect(readme).toContain("| mini-treasury | Mini treasury desk (release test fixture) | Business & Enterprise | 3 | 2 | 8 |");
    expect(readme).toContain("| easy | 1 |\n| uncalibrated | 1 |");
    expect(readme).toContain(`- Pipeline version ${PKG.version}, source revision \`rev-test\`.`);
    expect(readme).toContain("- Seed 7 (build records: mini-treasury: 7).");
    expect(readme).toContain("Kill rate of violation traces on released tasks: 1.000 (4 of 4).");
    expect(readme).toContain("  - mini-treasury/stale-quote: difficulty: solved by every probe agent");
    expect(readme).toContain("| zod | 4.6.7 |");
  });

  it("refuses to export over an existing version and changes nothing", () => {
    const before = fingerprint(join(outRoot, "demo"));
    const e = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot, revision: "other" }));
    expect(e.code).toBe("RELEASE_EXISTS");
    expect(e.location.file).toBe(dir);
    expect(fingerprint(join(outRoot, "demo"))).toEqual(before);
  });

  it("leaves no release and no staging folder when the export is killed midway", () => {
    let written = 0;
    const run = () =>
      exportRelease({
        name: "demo",
        version: "2.0.0",
        domains: [DOMAIN],
        ...fx,
        outRoot,
        revision: "rev-test",
        hooks: {
          afterWrite: () => {
            written += 1;
            if (written === 6) throw new Error("killed");
          },
        },
      });
    expect(run).toThrow("killed");
    expect(written).toBe(6);
    expect(readdirSync(join(outRoot, "demo"))).toEqual(["1.0.0"]);
  });

  it("refuses to publish a release whose golden trace no longer replays", () => {
    const broken = buildReleaseFixture(tempDir("release-broken"));
    const golden = join(broken.generatedDir, DOMAIN, "golden", "move-funds.json");
    const trace = JSON.parse(readFileSync(golden, "utf8")) as { events: Array<{ result?: unknown }> };
    (trace.events[3] as { result?: unknown }).result = { transfer_id: 4, amount: 9999 };
    writeFileSync(golden, JSON.stringify(trace));
    // Recorded as if the build itself had left this trace, so the staged audit is what refuses it.
    const gen = join(broken.generatedDir, DOMAIN);
    const record = JSON.parse(readFileSync(join(gen, "build-record.json"), "utf8"));
    writeBuildRecord(gen, record);
    const out = join(tempDir("release-out2"), "releases");
    const e = caught(() => exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...broken, outRoot: out, revision: "r" }));
    expect(e.code).toBe("RELEASE_AUDIT_FAILED");
    expect(e.message).toBe('the staged release does not audit clean, so it was not published — task mini-treasury/move-funds: event 4 result: recorded {"amount":9999,"transfer_id":4}, replayed {"amount":5000,"transfer_id":4}');
    expect(existsSync(join(out, "demo"))).toBe(true);
    expect(readdirSync(join(out, "demo"))).toEqual([]);
  });

  it("names the missing input and rejects bad names and versions", () => {
    const e = caught(() => exportRelease({ name: "demo", version: "3.0.0", domains: ["nope"], ...fx, outRoot, revision: "r" }));
    expect([e.code, e.location.file]).toEqual(["RELEASE_DOMAIN_NOT_FOUND", join(fx.generatedDir, "nope")]);
    expect(caught(() => exportRelease({ name: "Demo", version: "1.0.0", domains: [DOMAIN], outRoot })).code).toBe("USAGE");
    expect(caught(() => exportRelease({ name: "demo", version: "1.0", domains: [DOMAIN], outRoot })).message).toBe("release version must be X.Y.Z");
  });
});
