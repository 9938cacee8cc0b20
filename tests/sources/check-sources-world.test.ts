import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDomain, listDomainDirs } from "../../pipeline/sources/check-sources.js";
import { runCli } from "../cli/run-cli.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "check-sources");
const WORLDS = join(FIXTURES, "worlds");
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A copy of the clean fixture domain (folder `clean`) whose world.yaml is `worlds/<name>.yaml`. */
function domainWithWorld(name: string): string {
  const root = mkdtempSync(join(tmpdir(), "check-world-"));
  made.push(root);
  const dir = join(root, "clean");
  cpSync(join(FIXTURES, "clean"), dir, { recursive: true });
  cpSync(join(WORLDS, `${name}.yaml`), join(dir, "world.yaml"));
  return dir;
}

/** [code, file relative to the domain folder, line, field path, value] of every issue. */
function issuesOf(dir: string): Array<[string, string, number | undefined, string | undefined, unknown]> {
  return checkDomain(dir).issues.map((i) => [i.code, relative(dir, i.file ?? ""), i.line, i.path, i.value]);
}

describe("check-sources checks world.yaml completely", () => {
  it("the base fixture world is clean", () => {
    expect(issuesOf(domainWithWorld("base"))).toEqual([]);
  });

  it("an effect that is DROP TABLE", () => {
    expect(issuesOf(domainWithWorld("drop-table"))).toEqual([["WORLD_SQL_NOT_WRITE", "world.yaml", 42, "operations[1].effects[0].sql", "DROP TABLE pens"]]);
  });

  it("a precondition naming a missing column (lock_statu)", () => {
    const dir = domainWithWorld("missing-column");
    expect(issuesOf(dir)).toEqual([["WORLD_SQL", "world.yaml", 38, "operations[1].preconditions[0].sql", "SELECT lock_statu = 'open' FROM pens WHERE pen_id = :pen_id"]]);
    expect(checkDomain(dir).issues[0]?.message).toBe("precondition SQL does not prepare: no such column: lock_statu");
  });

  it("an effect with an unknown parameter (:pen_idd)", () => {
    expect(issuesOf(domainWithWorld("unknown-param"))).toEqual([["WORLD_SQL_UNKNOWN_PARAM", "world.yaml", 42, "operations[1].effects[0].sql", "pen_idd"]]);
  });

  it("an operation naming an unknown rule", () => {
    expect(issuesOf(domainWithWorld("unknown-rule"))).toEqual([["WORLD_UNKNOWN_RULE", "world.yaml", 43, "operations[1].rules[0]", "R-LOKC"]]);
  });

  it("an operation declared twice", () => {
    expect(issuesOf(domainWithWorld("duplicate-operation"))).toEqual([["WORLD_DUPLICATE", "world.yaml", 30, "operations[1].name", "get_client"]]);
  });

  it("a value the schema refuses, reported once (not again by the SOP extractor)", () => {
    expect(issuesOf(domainWithWorld("schema"))).toEqual([["WORLD_SCHEMA", "world.yaml", 33, "operations[1].access", "writ"]]);
  });

  it("a precondition with a non-terminating CTE", () => {
    const dir = domainWithWorld("recursive-precondition");
    expect(issuesOf(dir).map((i) => i.slice(0, 4))).toEqual([["WORLD_SQL_RECURSIVE", "world.yaml", 38, "operations[1].preconditions[0].sql"]]);
  });

  it("generated rows the initial state cannot hold", () => {
    const dir = domainWithWorld("unbuildable-rows");
    const [issue] = checkDomain(dir).issues;
    expect(issuesOf(dir).map((i) => i.slice(0, 4))).toEqual([["WORLD_BUILD", "world.yaml", 12, "tables[1]"]]);
    expect(issue?.message).toBe('cannot insert generated row 1 of table "pens": NOT NULL constraint failed: pens.lock_status');
  });

  it("synth check-sources exits 1 and prints the problem with file:line", () => {
    const dir = domainWithWorld("unknown-param");
    const r = runCli(["check-sources", dir]);
    expect(r.stdout).toBe(
      `${dir}/world.yaml:42 operations[1].effects[0].sql: [WORLD_SQL_UNKNOWN_PARAM] effect SQL uses :pen_idd, which is neither a parameter nor one of :now, :actor, :call (got "pen_idd")\n` +
        `${dir}: 3 of 3 documents loaded, 1 problem\n`,
    );
    expect(r.code).toBe(1);
  });
});

describe("a YAML alias bomb is a named problem of its file; the other domains are still checked", () => {
  const BROKEN = "tests/fixtures/check-sources/broken";
  /** Six levels of ten aliases each: a million nodes once expanded. */
  const BOMB = ["a: &a [x, x, x, x, x, x, x, x, x, x]", ..."bcdef".split("").map((k, i) => `${k}: &${k} [${Array(10).fill(`*${"abcdef"[i]}`).join(", ")}]`)];
  const brokenLines = [
    `${BROKEN}/docs/a-broken-front-matter.md:7: [DOC_FRONT_MATTER_SYNTAX] Flow sequence in block collection must be sufficiently indented and end with a ]`,
    `${BROKEN}/docs/b-missing-key.md:2 kind: [DOC_MISSING_KEY] required key 'kind' is missing`,
    `${BROKEN}/docs/c-limits.md:2 id: [DOC_DUPLICATE_ID] id 'limits-policy' is also used by docs/d-limits-copy.md, and neither version supersedes the other (got "limits-policy")`,
    `${BROKEN}/docs/d-limits-copy.md:2 id: [DOC_DUPLICATE_ID] id 'limits-policy' is also used by docs/c-limits.md, and neither version supersedes the other (got "limits-policy")`,
    `${BROKEN}: 3 of 5 documents loaded, 4 problems`,
  ];

  it("in world.yaml", () => {
    const dir = domainWithWorld("alias-bomb");
    const r = runCli(["check-sources", dir, BROKEN]);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n").filter(Boolean)).toEqual([
      `${dir}/world.yaml:45: [YAML_ALIAS_LIMIT] aliases expand to more than 100 nodes (an alias bomb?); write the values out instead`,
      `${dir}: 3 of 3 documents loaded, 1 problem`,
      ...brokenLines,
    ]);
    expect(r.code).toBe(1);
  });

  it("in a document's front matter", () => {
    const dir = domainWithWorld("base");
    const faq = readFileSync(join(dir, "docs", "faq.md"), "utf8");
    writeFileSync(join(dir, "docs", "faq.md"), faq.replace("---\nid: faq\n", `---\n${BOMB.join("\n")}\nid: faq\n`));
    const r = runCli(["check-sources", dir, BROKEN]);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n").filter(Boolean)).toEqual([
      `${dir}/docs/faq.md:3: [YAML_ALIAS_LIMIT] aliases expand to more than 100 nodes (an alias bomb?); write the values out instead`,
      `${dir}: 2 of 3 documents loaded, 1 problem`,
      ...brokenLines,
    ]);
    expect(r.code).toBe(1);
  });

  it("in the domain card", () => {
    const dir = domainWithWorld("base");
    const card = readFileSync(join(dir, "domain.yaml"), "utf8");
    writeFileSync(join(dir, "domain.yaml"), `${BOMB.join("\n")}\n${card}`);
    const issues = checkDomain(dir).issues.map((i) => [i.code, relative(dir, i.file ?? ""), i.line]);
    expect(issues[0]).toEqual(["YAML_ALIAS_LIMIT", "domain.yaml", 2]);
  });
});

describe("the sample domains", () => {
  it("check clean with the world checks (no false refusal)", () => {
    const dirs = listDomainDirs("sources");
    expect(dirs.length).toBeGreaterThanOrEqual(7);
    for (const d of dirs) expect(checkDomain(d).issues, d).toEqual([]);
  });
});
