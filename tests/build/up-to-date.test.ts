import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { readUpToDate, upToDateFile, upToDateKey, writeUpToDate } from "../../pipeline/build/up-to-date.js";
import { runCli } from "../cli/run-cli.js";

const config = resolveConfig({ env: {}, cwd: "/nonexistent" });

function folders(): { sources: string; sop: string; generated: string } {
  const root = mkdtempSync(join(tmpdir(), "up-to-date-"));
  const paths = { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") };
  for (const [dir, file] of [
    [paths.sources, "d/docs/a.md"],
    [paths.sop, "d/rules.json"],
    [paths.generated, "d/tasks/d-001.json"],
  ] as const) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), "one");
  }
  return paths;
}

describe("the up-to-date key of a domain", () => {
  it("changes with a document, an SOP file, an output file (edited, added or deleted) and a setting; not with the database URL", () => {
    const paths = folders();
    const key = (c = config) => upToDateKey("d", c, paths).key;
    const base = key();
    expect(key()).toBe(base);
    const edits: Array<[string, () => void, () => void]> = [
      ["document", () => writeFileSync(join(paths.sources, "d/docs/a.md"), "two"), () => writeFileSync(join(paths.sources, "d/docs/a.md"), "one")],
      ["SOP", () => writeFileSync(join(paths.sop, "d/rules.json"), "two"), () => writeFileSync(join(paths.sop, "d/rules.json"), "one")],
      ["output edited", () => writeFileSync(join(paths.generated, "d/tasks/d-001.json"), "two"), () => writeFileSync(join(paths.generated, "d/tasks/d-001.json"), "one")],
      ["output added", () => writeFileSync(join(paths.generated, "d/tasks/d-002.json"), "one"), () => rmSync(join(paths.generated, "d/tasks/d-002.json"))],
      ["output deleted", () => rmSync(join(paths.generated, "d/tasks/d-001.json")), () => writeFileSync(join(paths.generated, "d/tasks/d-001.json"), "one")],
    ];
    for (const [what, edit, undo] of edits) {
      edit();
      expect(key(), what).not.toBe(base);
      undo();
      expect(key(), `${what} undone`).toBe(base);
    }
    expect(key({ ...config, seed: 7 })).not.toBe(base);
    expect(key({ ...config, models: { "task-designer": "openai:gpt-4.1" } })).not.toBe(base);
    expect(key({ ...config, database_url: "postgres://u@h/db" })).toBe(base);
  });

  it("a record serves only the files it was written for; a torn record is no record", () => {
    const paths = folders();
    writeUpToDate("d", config, paths, "run-1", { domain: "d" });
    expect(readUpToDate("d", config, paths)?.run).toBe("run-1");
    expect(readUpToDate("d", { ...config, seed: 7 }, paths)).toBeNull();
    expect(readUpToDate("e", config, paths)).toBeNull();
    // Same size, rewritten: the stat differs, so the bytes are hashed again.
    writeFileSync(join(paths.sop, "d/rules.json"), "two");
    expect(readUpToDate("d", config, paths)).toBeNull();
    writeFileSync(join(paths.sop, "d/rules.json"), "one");
    expect(readUpToDate("d", config, paths)?.run).toBe("run-1");
    writeFileSync(upToDateFile(paths.generated, "d"), '{"domain":"d","key":');
    expect(readUpToDate("d", config, paths)).toBeNull();
  });
});

/** The JSON result line of `synth build --json`. */
function result(stdout: string): { run: string | null; up_to_date: Array<{ domain: string; run: string }>; domains: Array<{ domain: string; released: number }>; cache: { hits: number; misses: number } } {
  const line = stdout.split("\n").find((l) => l.startsWith('{"event":"result"'));
  if (!line) throw new Error(`no result line in:\n${stdout}`);
  return JSON.parse(line);
}

describe("synth build of an unchanged domain", () => {
  it("answers from the up-to-date record without building; a deleted output or an edited SOP builds again", () => {
    const root = mkdtempSync(join(tmpdir(), "up-to-date-cli-"));
    cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
    const card = join(root, "sources/fx-treasury/domain.yaml");
    writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, "task_count: 2"));
    const args = ["build", "--sources", join(root, "sources"), "--sop", join(root, "sop"), "--generated", join(root, "generated"), "--json"];
    const env = { FOUNDRY_TEST_KILL_AT: "" };
    const build = () => {
      const r = runCli(args, { env, timeoutMs: 180_000 });
      expect(r.code, r.stderr).toBe(0);
      return result(r.stdout);
    };

    const first = build();
    expect(first.run).toMatch(/^run-/);
    expect(first.up_to_date).toEqual([]);
    const released = first.domains[0]!.released;
    expect(released).toBeGreaterThan(0);
    expect(existsSync(upToDateFile(join(root, "generated"), "fx-treasury"))).toBe(true);

    const noop = build();
    expect(noop.run).toBeNull();
    expect(noop.up_to_date).toEqual([{ domain: "fx-treasury", run: first.run }]);
    expect(noop.domains.map((d) => [d.domain, d.released])).toEqual([["fx-treasury", released]]);
    expect(noop.cache).toEqual({ hits: 0, misses: 0 });

    // A deleted golden trace: the graph runs (served from the stage cache) and writes it back.
    const golden = join(root, "generated/fx-treasury/golden/fx-treasury-001.json");
    const text = readFileSync(golden, "utf8");
    rmSync(golden);
    const restored = build();
    expect(restored.run).toMatch(/^run-/);
    expect(restored.up_to_date).toEqual([]);
    expect(readFileSync(golden, "utf8")).toBe(text);
    expect(build().run).toBeNull();

    // An edited SOP file is an input: the graph runs.
    const rules = join(root, "sop/fx-treasury/rules.json");
    writeFileSync(rules, `${readFileSync(rules, "utf8")}\n`);
    expect(build().run).toMatch(/^run-/);
  }, 300_000);
});
