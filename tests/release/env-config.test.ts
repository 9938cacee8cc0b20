import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportRelease } from "../../pipeline/release/export-release.js";
import Database from "better-sqlite3";
import { EnvConfigFile, EnvConfigShared, WorldModel } from "../../pipeline/schemas/index.js";
import { joinEnvConfig } from "../../pipeline/world/env-config/env-config-parts.js";
import { sha256, stableJson } from "../../pipeline/core/canonical-json.js";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import { agentToolSpecs } from "../../pipeline/world/standard-tools.js";
import { compileWorld } from "../../pipeline/world/compile-world.js";
import { applyOverlay } from "../../pipeline/world/build-state.js";
import { hiddenLeaks } from "../../pipeline/world/env-config/hidden-values.js";
import { renderEnvConfig } from "../../pipeline/world/env-config/render-env-config.js";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { CONVERSATION_TOOLS } from "../../pipeline/evaluate/session.js";
import { buildReleaseFixture, DOMAIN, type ReleaseFixture } from "./fixture.js";
import { cleanupTemp, tempDir, writableCopy } from "./helpers.js";
import { FoundryError } from "../../pipeline/core/errors.js";

let fx: ReleaseFixture;
let dir: string;
const CONFIG = `domains/${DOMAIN}/env-configs/move-funds.json`;

beforeAll(() => {
  fx = buildReleaseFixture(tempDir("envcfg-fx"));
  dir = exportRelease({ name: "envcfg", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("envcfg-out"), "releases"), revision: "rev-test" }).dir;
});
afterAll(cleanupTemp);

type Manifest = { files: Record<string, string>; root_hash: string };

const sharedOf = (hash: string) => `domains/${DOMAIN}/env-configs/shared/${hash}.json`;

/** A copy of the release with `path` edited (or removed), `add` written, and every hash recomputed: only the content checks can see it. */
function tampered(path: string, edit: ((text: string) => string) | null, add?: [string, string]): string {
  const copy = writableCopy(dir);
  const manifest = JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8")) as Manifest;
  if (add) {
    writeFileSync(join(copy, add[0]), add[1]);
    manifest.files[add[0]] = sha256(Buffer.from(add[1], "utf8"));
  }
  if (edit === null) {
    rmSync(join(copy, path));
    delete manifest.files[path];
  } else {
    const text = edit(readFileSync(join(copy, path), "utf8"));
    writeFileSync(join(copy, path), text);
    manifest.files[path] = sha256(Buffer.from(text, "utf8"));
  }
  manifest.root_hash = manifestRootHash(manifest.files);
  writeFileSync(join(copy, "manifest.json"), stableJson(manifest));
  return copy;
}

describe("environment configurations in a release", () => {
  it("ship one schema-checked configuration per released task, hashed in the manifest, with the session's tools and no hidden column", () => {
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
    const file = EnvConfigFile.parse(JSON.parse(readFileSync(join(dir, CONFIG), "utf8")));
    // Both tasks share one shared part (same world, same business date), stored once under its sha256.
    expect(Object.keys(manifest.files).filter((f) => f.includes("/env-configs/")).sort()).toEqual([CONFIG, `domains/${DOMAIN}/env-configs/release-payment.json`, sharedOf(file.shared)]);
    expect(manifest.files[CONFIG]).toBe(sha256(readFileSync(join(dir, CONFIG))));
    expect(manifest.files[sharedOf(file.shared)]).toBe(file.shared);
    const config = joinEnvConfig(file, EnvConfigShared.parse(JSON.parse(readFileSync(join(dir, sharedOf(file.shared)), "utf8"))));
    // The evaluator reads the same configuration, joined.
    expect(loadEvalRelease(dir).tasks.find((t) => t.task.id === "move-funds")!.env_config!()).toEqual(config);
    // The evaluator's session offers the tools of the release's world.json (stable JSON, keys sorted).
    const world = compileWorld(WorldModel.parse(JSON.parse(readFileSync(join(fx.generatedDir, DOMAIN, "world.json"), "utf8"))));
    expect(config.tools.map(({ name, description, parameters }) => ({ name, description, parameters }))).toEqual([...agentToolSpecs(world, "direct"), ...CONVERSATION_TOOLS]);
    expect(JSON.stringify(config)).not.toContain("risk_score");
    // The row rule: the customer's accounts (both named in the opening request), not the whole table.
    const accounts = config.initial_state.find((t) => t.table === "accounts")!;
    expect(accounts.rows.map((r) => r.account_id)).toEqual(expect.arrayContaining(["ACC-001", "ACC-002"]));
    expect(accounts.omitted).toBeGreaterThan(0);
    expect(config.initial_state.find((t) => t.table === "clients")!.rows.map((r) => r.client_id)).toContain("CL-001");
    expect(accounts.columns).not.toContain("risk_score");
    const execute = config.tools.find((t) => t.name === "execute_transfer")!;
    expect(execute.result?.kind).toBeDefined();
    expect(auditRelease(dir).ok).toBe(true);
  }, 120_000);

  it("the audit refuses a released task without its configuration, naming the file", () => {
    const report = auditRelease(tampered(CONFIG, null));
    expect(report.hash_failures).toEqual([]);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual({ file: CONFIG, reason: "the released task has no environment configuration (required file is missing from the release)" });
  }, 120_000);

  it("the audit refuses a configuration that lists a hidden column", () => {
    const copy = tampered(CONFIG, (t) => {
      const c = JSON.parse(t) as EnvConfigFile;
      const accounts = c.initial_state.find((x) => x.table === "accounts")!;
      accounts.columns.push("risk_score");
      accounts.rows = accounts.rows.map((r) => ({ ...r, risk_score: 3 }));
      return stableJson(c);
    });
    const report = auditRelease(copy);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual({ file: CONFIG, reason: "lists the hidden column accounts.risk_score (initial_state.accounts)" });
  }, 120_000);

  it("the audit refuses a configuration whose shared part names a hidden column, naming the shared file", () => {
    const file = EnvConfigFile.parse(JSON.parse(readFileSync(join(dir, CONFIG), "utf8")));
    const shared = EnvConfigShared.parse(JSON.parse(readFileSync(join(dir, sharedOf(file.shared)), "utf8")));
    shared.state_description.notes += " Accounts also carry a risk_score the desk never shows.";
    const text = stableJson(shared);
    const hash = sha256(Buffer.from(text, "utf8"));
    // The edited part is filed under its own hash and the task's file names it: only the leak check can see it.
    const copy = tampered(CONFIG, (t) => stableJson({ ...(JSON.parse(t) as object), shared: hash }), [sharedOf(hash), text]);
    const report = auditRelease(copy);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual({ file: sharedOf(hash), reason: `names the hidden column accounts.risk_score (in state_description), as completed by ${CONFIG}` });
  }, 120_000);

  it("the audit refuses a shared part not filed under its sha256, and one no task names", () => {
    const file = EnvConfigFile.parse(JSON.parse(readFileSync(join(dir, CONFIG), "utf8")));
    const wrong = "0".repeat(64);
    const copy = tampered(CONFIG, (t) => stableJson({ ...(JSON.parse(t) as object), shared: wrong }), [sharedOf(wrong), readFileSync(join(dir, sharedOf(file.shared)), "utf8")]);
    const report = auditRelease(copy);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual({ file: sharedOf(wrong), reason: `is filed under ${wrong} but its sha256 is ${file.shared}` });
    // release-payment still names the original part; a part nobody names is stray.
    const stray = tampered(`domains/${DOMAIN}/env-configs/release-payment.json`, null, [sharedOf("1".repeat(64)), "{}\n"]);
    expect(auditRelease(stray).problems).toContainEqual({ file: sharedOf("1".repeat(64)), reason: "shared part of environment configurations that no task of the release names" });
  }, 120_000);

  it("a hidden value no agent can see, written into the system prompt, is found and refused", () => {
    const release = loadEvalRelease("sample", join(process.cwd(), "generated", "releases"));
    const item = release.tasks.find((t) => t.domain.id === "customs-clearance")!;
    const world = item.domain.compiled;
    const state = applyOverlay(item.domain.base, world.world, item.task.initial_state);
    const config = renderEnvConfig({ world, state, task: item.task, sop: null, domainTitle: item.domain.card.title });
    expect(hiddenLeaks(config, world, state)).toEqual([]);
    // Find a hidden value of length ≥ 3 that is a leak once written down.
    const probe = (value: string) => hiddenLeaks({ ...config, system_prompt: `${config.system_prompt}\nNote: ${value}.` }, world, state);
    // The first hidden value (by table and column order) that no agent can see is a leak once written down.
    const leaks = (() => {
      const db = new Database(state.buffer, { readonly: true });
      try {
        for (const t of world.world.tables)
          for (const c of t.columns.filter((x) => x.hidden))
            for (const [v] of db.prepare(`SELECT DISTINCT "${c.name}" FROM "${t.name}" WHERE "${c.name}" IS NOT NULL`).raw().all() as unknown[][]) {
              const l = probe(String(v));
              if (l.length > 0) return l;
            }
        return [];
      } finally {
        db.close();
      }
    })();
    expect(leaks).toHaveLength(1);
    const hiddenTable = world.tables.get(leaks[0]!.table)!;
    const column = hiddenTable.columns.find((c) => c.name === leaks[0]!.column)!;
    expect(column.hidden).toBe(true);
    expect(leaks[0]).toMatchObject({ table: hiddenTable.name, column: column.name, where: "system_prompt" });
    // The renderer refuses to write such a configuration at all.
    expect(() => renderEnvConfig({ world, state, task: item.task, sop: { rules: [], workflows: [], documents: [], problems: [], domain: "x", strategy: "deterministic", sources_hash: "x" } as never, domainTitle: `${item.domain.card.title} ${String(leaks[0]?.value)}` })).toThrow(/would reveal hidden values/);
  }, 120_000);

  it("an export refuses a released task whose configuration was not built", () => {
    rmSync(join(fx.generatedDir, DOMAIN, "env-configs", "move-funds.json"));
    let error: unknown;
    try {
      exportRelease({ name: "envcfg", version: "1.0.1", domains: [DOMAIN], ...fx, outRoot: join(tempDir("envcfg-out2"), "releases"), revision: "rev-test" });
    } catch (e) {
      error = e;
    }
    expect(FoundryError.is(error) ? error.code : error).toMatch(/RELEASE_(INPUT_MISSING|STALE_BUILD)/);
  }, 120_000);
});
