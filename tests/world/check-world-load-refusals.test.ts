import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseWorld } from "../../pipeline/world/load-world.js";

/** A valid world: result SQL on line 29, precondition SQL on line 38, effect SQL on line 42. */
const BASE = readFileSync(join(import.meta.dirname, "..", "fixtures", "check-sources", "worlds", "base.yaml"), "utf8");
const RESULT = 'result: { sql: "SELECT * FROM clients WHERE client_id = :client_id" }';
const PRECONDITION = `sql: "SELECT lock_status = 'open' FROM pens WHERE pen_id = :pen_id"`;
const EFFECT = `- sql: "UPDATE pens SET lock_status = 'locked' WHERE pen_id = :pen_id"`;

function variant(from: string, to: string): string {
  expect(BASE.split(from)).toHaveLength(2);
  return BASE.replace(from, to);
}

/** [code, line, path, message] of every problem. */
function problems(text: string): Array<[string, number | undefined, string | undefined, string]> {
  return parseWorld(text, "world.yaml").problems.map((p) => [p.code, p.line, p.path, p.message]);
}

const precondition = (sql: string) => problems(variant(PRECONDITION, `sql: ${JSON.stringify(sql)}`));
const effect = (sql: string) => problems(variant(EFFECT, `- sql: ${JSON.stringify(sql)}`));
const result = (sql: string) => problems(variant(RESULT, `result: { sql: ${JSON.stringify(sql)} }`));

const P = "operations[1].preconditions[0].sql";
const E = "operations[1].effects[0].sql";
const R = "operations[0].result.sql";

describe("world SQL that can recurse without end is refused at load time", () => {
  it("the base world loads", () => {
    expect(problems(BASE)).toEqual([]);
  });

  it("a CTE that reads itself without the RECURSIVE keyword", () => {
    expect(precondition("WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) > 0 FROM c")).toEqual([
      ["WORLD_SQL_RECURSIVE", 38, P, 'precondition SQL has a recursive common table expression "c" (it reads itself); world SQL must not recurse'],
    ]);
  });

  it("a CTE with the RECURSIVE keyword, even one bounded by a WHERE", () => {
    expect(result("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT i FROM n")).toEqual([
      ["WORLD_SQL_RECURSIVE", 29, R, 'result SQL has a recursive common table expression "n" (it reads itself); world SQL must not recurse'],
    ]);
  });

  it("a recursive CTE inside an effect's subquery", () => {
    expect(effect("UPDATE pens SET lock_status = 'locked' WHERE pen_id IN (WITH k(p) AS (SELECT :pen_id UNION SELECT p FROM k) SELECT p FROM k)")).toEqual([
      ["WORLD_SQL_RECURSIVE", 42, E, 'effect SQL has a recursive common table expression "k" (it reads itself); world SQL must not recurse'],
    ]);
  });

  it("a CTE that only shares its name with one of its columns is not recursive", () => {
    expect(result("WITH total AS (SELECT count(*) AS total FROM clients WHERE client_id = :client_id) SELECT total FROM total")).toEqual([]);
  });
});

describe("nondeterministic world SQL is refused at load time", () => {
  const refused: Array<[string, string]> = [
    ["SELECT random() > 0", "random"],
    ["SELECT length(randomblob(4)) = 4", "randomblob"],
    ["SELECT changes() >= 0", "changes"],
    ["SELECT total_changes() >= 0", "total_changes"],
    ["SELECT last_insert_rowid() >= 0", "last_insert_rowid"],
    ["SELECT CURRENT_TIMESTAMP IS NOT NULL", "current_timestamp"],
    ["SELECT date('now') IS NOT NULL", "'now'"],
    ["SELECT julianday() > 0", "julianday() without a time value (it then reads the clock)"],
    ["SELECT unixepoch() > 0", "unixepoch() without a time value (it then reads the clock)"],
    ["SELECT CAST(strftime('%s') AS INTEGER) > 0", "strftime() without a time value (it then reads the clock)"],
    ["SELECT time() IS NOT NULL", "time() without a time value (it then reads the clock)"],
    ["SELECT datetime(0, 'localtime') IS NOT NULL", "'localtime'"],
    ["SELECT date(0, 'utc') IS NOT NULL", "'utc'"],
  ];
  for (const [sql, what] of refused) {
    it(`${sql}`, () => {
      expect(precondition(sql)).toEqual([["WORLD_SQL_NONDETERMINISTIC", 38, P, `precondition SQL uses ${what}, which differs between runs; use :now (the logical minute) or a bound value`]]);
    });
  }

  it("an effect writing the wall clock into the state (verified_at = CAST(strftime('%s') AS INTEGER))", () => {
    expect(effect("UPDATE pens SET lock_status = CAST(strftime('%s') AS INTEGER) WHERE pen_id = :pen_id")).toEqual([
      ["WORLD_SQL_NONDETERMINISTIC", 42, E, "effect SQL uses strftime() without a time value (it then reads the clock), which differs between runs; use :now (the logical minute) or a bound value"],
    ]);
  });

  it("date functions given a time value, and a column named like a function, load", () => {
    expect(precondition("SELECT strftime('%Y', 0) = '-471' AND julianday(:now) > 0 AND date(0, '+1 day') IS NOT NULL AND lock_status != 'now-ish' FROM pens WHERE pen_id = :pen_id")).toEqual([]);
    expect(result("SELECT client_id AS changes FROM clients WHERE client_id = :client_id")).toEqual([]);
  });
});

describe("a parameter written inside a string literal is reported", () => {
  it("'form :client_id' names a parameter that is never bound there", () => {
    expect(result("SELECT * FROM clients WHERE client_id = :client_id OR client_id = 'form :client_id'")).toEqual([
      ["WORLD_SQL_PARAM_IN_STRING", 29, R, "result SQL writes :client_id inside the string literal 'form :client_id', where it is text and never bound; concatenate instead ('…' || :client_id)"],
    ]);
  });

  it("a reserved parameter (:now) inside a string is reported too; a time like '10:30' or an unknown ':word' is not", () => {
    expect(effect("UPDATE pens SET lock_status = 'at :now' WHERE pen_id = :pen_id")).toEqual([
      ["WORLD_SQL_PARAM_IN_STRING", 42, E, "effect SQL writes :now inside the string literal 'at :now', where it is text and never bound; concatenate instead ('…' || :now)"],
    ]);
    expect(effect("UPDATE pens SET lock_status = '10:30 status:open' WHERE pen_id = :pen_id")).toEqual([]);
  });
});
