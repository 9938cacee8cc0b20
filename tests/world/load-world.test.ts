import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseWorld, readWorld, loadWorld, validateWorld } from "../../pipeline/world/load-world.js";
import { WorldInvalidError } from "../../pipeline/world/world-problems.js";
import type { FoundryIssue } from "../../pipeline/core/errors.js";
import { FIXTURE_FILE } from "./fixture.js";

const BASE = `domain: tiny
customer_table: clients
tables:
  - name: clients
    description: Clients.
    primary_key: client_id
    columns:
      - { name: client_id, type: text, description: Key. }
      - { name: name, type: text, description: Name. }
    rows:
      - { client_id: C1, name: One }
    generate:
      count: 2
      fields:
        client_id: { seq: "C{n}" }
        name: { faker: company.name }
  - name: orders
    description: Orders.
    primary_key: order_id
    owner_column: client_id
    columns:
      - { name: order_id, type: text, description: Key. }
      - { name: client_id, type: text, references: clients.client_id, description: Client. }
      - { name: total, type: real, description: Total. }
    generate:
      count: 3
      fields:
        order_id: { seq: "O{n}" }
        client_id: { ref: clients.client_id }
        total: { real: [1, 100] }
operations:
  - name: get_order
    description: Get an order.
    side: agent
    access: read
    params:
      order_id: { type: string, description: Key. }
    preconditions:
      - { id: exists, sql: "SELECT count(*) FROM orders WHERE order_id = :order_id", message: No such order. }
    result: { sql: "SELECT * FROM orders WHERE order_id = :order_id" }
  - name: propose_cancel
    description: Propose to cancel.
    side: agent
    access: write
    params:
      order_id: { type: string, description: Key. }
      total: { type: number, description: Total. }
    proposes: { kind: cancel, terms: [order_id, total] }
  - name: approve_cancel
    description: Approve a cancellation.
    side: customer
    access: write
    params:
      proposal_id: { type: string, description: Proposal. }
    approves: cancel
  - name: cancel_order
    description: Cancel.
    side: agent
    access: write
    params:
      order_id: { type: string, description: Key. }
      total: { type: number, description: Total. }
    requires_approval: { kind: cancel, terms: [order_id, total] }
    effects:
      - sql: "DELETE FROM orders WHERE order_id = :order_id"
    rules: [R-1]
events:
  - id: tick
    description: Tick.
    at: 10
    effects:
      - sql: "UPDATE orders SET total = total WHERE order_id = 'none'"
rules:
  - id: R-1
    clause: { document: d, clause: X-1 }
    kind: invariant
    description: Totals are positive.
    invariant: { table: orders, require: [{ column: total, op: ">", value: 0 }] }
`;

/** 1-based line of the first line containing `marker` in `text`. */
function lineOf(text: string, marker: string): number {
  const i = text.split("\n").findIndex((l) => l.includes(marker));
  if (i < 0) throw new Error(`marker not found: ${marker}`);
  return i + 1;
}

function variant(...edits: Array<[string, string]>): string {
  let text = BASE;
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`edit target not found: ${from}`);
    text = text.replace(from, to);
  }
  return text;
}

function problems(text: string): FoundryIssue[] {
  const res = parseWorld(text, "world.yaml");
  expect(res.world).toBeNull();
  return res.problems;
}

function only(text: string): FoundryIssue {
  const p = problems(text);
  expect(p).toHaveLength(1);
  return p[0] as FoundryIssue;
}

describe("load-world", () => {
  it("accepts the base world and the fixture world", () => {
    expect(parseWorld(BASE, "world.yaml").problems).toEqual([]);
    expect(readWorld(FIXTURE_FILE, "world.yaml").problems).toEqual([]);
  });

  it("reports a generator ref to an unknown table with file, line and path", () => {
    const text = variant(["client_id: { ref: clients.client_id }", "client_id: { ref: clientz.client_id }"]);
    expect(only(text)).toEqual({
      code: "WORLD_UNKNOWN_TABLE",
      message: 'generator "orders.client_id" ref names unknown table "clientz"',
      file: "world.yaml",
      line: lineOf(text, "clientz.client_id"),
      path: "tables[1].generate.fields.client_id.ref",
      value: "clientz.client_id",
    });
  });

  it("reports a generator ref to an unknown column", () => {
    const text = variant(["{ ref: clients.client_id }", "{ ref: clients.id }"]);
    const p = only(text);
    expect([p.code, p.message, p.path, p.line]).toEqual([
      "WORLD_UNKNOWN_COLUMN",
      'generator "orders.client_id" ref names unknown column "clients.id"',
      "tables[1].generate.fields.client_id.ref",
      lineOf(text, "{ ref: clients.id }"),
    ]);
  });

  it("reports references, owner_column and customer_table naming unknown things", () => {
    const text = variant(
      ["references: clients.client_id", "references: clients.key"],
      ["owner_column: client_id", "owner_column: owner"],
      ["customer_table: clients", "customer_table: customers"],
    );
    const p = problems(text);
    expect(p.map((i) => [i.code, i.path, i.line])).toEqual([
      ["WORLD_UNKNOWN_TABLE", "customer_table", 2],
      ["WORLD_UNKNOWN_COLUMN", "tables[1].columns[1].references", lineOf(text, "clients.key")],
      ["WORLD_UNKNOWN_COLUMN", "tables[1].owner_column", lineOf(text, "owner_column: owner")],
    ]);
    expect(p[0]?.message).toBe('customer_table names unknown table "customers"');
    expect(p[2]?.message).toBe('owner_column names unknown column "owner" of table "orders"');
  });

  it("reports an invariant rule naming an unknown column", () => {
    const text = variant(['require: [{ column: total, op: ">"', 'require: [{ column: amount, op: ">"']);
    expect(only(text)).toMatchObject({
      code: "WORLD_UNKNOWN_COLUMN",
      message: 'rule "R-1" names unknown column "orders.amount"',
      path: "rules[0].invariant.require[0].column",
      line: lineOf(text, "column: amount"),
    });
  });

  it("reports fixed rows with an unknown column or without a primary key", () => {
    const text = variant(["- { client_id: C1, name: One }", "- { client_id: C1, name: One, colour: red }\n      - { name: Two }"]);
    const p = problems(text);
    expect(p.map((i) => [i.code, i.path, i.line])).toEqual([
      ["WORLD_ROW_UNKNOWN_COLUMN", "tables[0].rows[0].colour", lineOf(text, "colour: red")],
      ["WORLD_ROW_MISSING_KEY", "tables[0].rows[1]", lineOf(text, "{ name: Two }")],
    ]);
    expect(p[1]?.message).toBe('fixed row of table "clients" has no primary key "client_id"');
  });

  it("prepares every statement: a missing table is reported with SQLite's reason", () => {
    const text = variant(['result: { sql: "SELECT * FROM orders WHERE', 'result: { sql: "SELECT * FROM orderz WHERE']);
    expect(only(text)).toMatchObject({
      code: "WORLD_SQL",
      message: "result SQL does not prepare: no such table: orderz",
      path: "operations[0].result.sql",
      line: lineOf(text, "FROM orderz"),
    });
  });

  it("refuses a precondition that is not a single SELECT and an effect that is not a write", () => {
    const text = variant(
      ['sql: "SELECT count(*) FROM orders WHERE order_id = :order_id"', 'sql: "DELETE FROM orders WHERE order_id = :order_id"'],
      ['- sql: "DELETE FROM orders WHERE order_id = :order_id"', '- sql: "SELECT * FROM orders WHERE order_id = :order_id"'],
    );
    const p = problems(text);
    expect(p.map((i) => [i.code, i.message, i.path])).toEqual([
      ["WORLD_SQL_NOT_SELECT", "a precondition must be one SELECT statement", "operations[0].preconditions[0].sql"],
      ["WORLD_SQL_NOT_WRITE", "an effect must be one INSERT, UPDATE or DELETE statement", "operations[3].effects[0].sql"],
    ]);
  });

  it("refuses a precondition made of two statements", () => {
    const text = variant(['sql: "SELECT count(*) FROM orders WHERE order_id = :order_id"', 'sql: "SELECT 1; SELECT 2"']);
    expect(only(text)).toMatchObject({
      code: "WORLD_SQL",
      message: "precondition SQL does not prepare: The supplied SQL string contains more than one statement",
      path: "operations[0].preconditions[0].sql",
    });
  });

  it("refuses world SQL that calls the runtime's _capture function", () => {
    const text = variant(['- sql: "DELETE FROM orders WHERE order_id = :order_id"', `- sql: "UPDATE orders SET total = total WHERE _capture('orders', 'd', :order_id) IS NULL"`]);
    expect(only(text)).toMatchObject({ code: "WORLD_SQL_RESERVED", message: "effect SQL calls the runtime's _capture function", path: "operations[3].effects[0].sql" });
  });

  it("refuses world SQL that reads the wall clock or draws random numbers", () => {
    const text = variant(
      ["- sql: \"UPDATE orders SET total = total WHERE order_id = 'none'\"", "- sql: \"UPDATE orders SET total = random() WHERE order_id = 'none'\""],
      ['result: { sql: "SELECT * FROM orders WHERE order_id = :order_id" }', `result: { sql: "SELECT *, datetime('now') AS t FROM orders WHERE order_id = :order_id" }`],
    );
    expect(problems(text).map((i) => [i.code, i.message, i.path])).toEqual([
      ["WORLD_SQL_NONDETERMINISTIC", "result SQL uses 'now', which differs between runs; use :now (the logical minute) or a bound value", "operations[0].result.sql"],
      ["WORLD_SQL_NONDETERMINISTIC", "effect SQL uses random, which differs between runs; use :now (the logical minute) or a bound value", "events[0].effects[0].sql"],
    ]);
  });

  it("reports a SQL parameter that is not a param", () => {
    const text = variant(['WHERE order_id = :order_id", message: No such order.', 'WHERE order_id = :order", message: No such order.']);
    expect(only(text)).toMatchObject({ code: "WORLD_SQL_UNKNOWN_PARAM", path: "operations[0].preconditions[0].sql", value: "order" });
  });

  it("reports approval terms that are not params and an approves without proposal_id", () => {
    const text = variant(
      ["requires_approval: { kind: cancel, terms: [order_id, total] }", "requires_approval: { kind: cancel, terms: [order_id, amount] }"],
      ["proposal_id: { type: string, description: Proposal. }", "proposal: { type: string, description: Proposal. }"],
    );
    const p = problems(text);
    expect(p.map((i) => [i.code, i.message, i.path])).toEqual([
      ["WORLD_APPROVAL", 'operation "approve_cancel" approves "cancel" but has no proposal_id parameter', "operations[2].approves"],
      ["WORLD_APPROVAL_TERM", 'requires_approval term "amount" is not a parameter of "cancel_order"', "operations[3].requires_approval.terms[1]"],
      ["WORLD_APPROVAL", "terms [order_id, amount] differ from the proposed terms [order_id, total]: no proposal could ever match", "operations[3].requires_approval.terms"],
    ]);
  });

  it("reports scheduled events that form a cycle or name unknown operations and events", () => {
    const events = `events:
  - id: first
    description: First.
    after: { event: second, delay: 5 }
    effects:
      - sql: "UPDATE orders SET total = total WHERE order_id = 'none'"
  - id: second
    description: Second.
    after: { event: first, delay: 5 }
    effects:
      - sql: "UPDATE orders SET total = total WHERE order_id = 'none'"
  - id: third
    description: Third.
    after: { operation: ship_order, delay: 5 }
    effects:
      - sql: "UPDATE orders SET total = total WHERE order_id = 'none'"
  - id: fourth
    description: Fourth.
    after: { event: fifth, delay: 5 }
    effects:
      - sql: "UPDATE orders SET total = total WHERE order_id = 'none'"
rules:`;
    const text = BASE.replace(/events:[\s\S]*?\nrules:/, events);
    const p = problems(text);
    expect(p.map((i) => [i.code, i.message, i.path, i.line])).toEqual([
      ["WORLD_EVENT_UNKNOWN_OPERATION", 'event "third" fires after unknown operation "ship_order"', "events[2].after.operation", lineOf(text, "ship_order")],
      ["WORLD_EVENT_UNKNOWN_EVENT", 'event "fourth" fires after unknown event "fifth"', "events[3].after.event", lineOf(text, "event: fifth")],
      ["WORLD_EVENT_CYCLE", "scheduled events form a cycle: first → second → first", "events[0].after.event", lineOf(text, "event: second")],
    ]);
  });

  it("reports operation rules naming unknown formal rules", () => {
    const text = variant(["rules: [R-1]", "rules: [R-1, R-9]"]);
    expect(only(text)).toMatchObject({ code: "WORLD_UNKNOWN_RULE", message: 'operation "cancel_order" names unknown rule "R-9"', path: "operations[3].rules[1]", value: "R-9" });
  });

  it("reports every problem of a world at once, in a WorldInvalidError from loadWorld", () => {
    const text = variant(
      ["client_id: { ref: clients.client_id }", "client_id: { ref: clientz.client_id }"],
      ['result: { sql: "SELECT * FROM orders WHERE', 'result: { sql: "SELECT * FROM orderz WHERE'],
      ["rules: [R-1]", "rules: [R-2]"],
    );
    const p = problems(text);
    expect(p.map((i) => i.code)).toEqual(["WORLD_UNKNOWN_TABLE", "WORLD_UNKNOWN_RULE", "WORLD_SQL"]);
    const res = validateWorld(parseYaml(text), "memory.yaml");
    expect(res.problems.map((i) => [i.code, i.file, i.line])).toEqual([
      ["WORLD_UNKNOWN_TABLE", "memory.yaml", undefined],
      ["WORLD_UNKNOWN_RULE", "memory.yaml", undefined],
      ["WORLD_SQL", "memory.yaml", undefined],
    ]);
  });

  it("loadWorld throws an aggregate with .issues", () => {
    let caught: unknown;
    try {
      loadWorld("/nonexistent/world.yaml", "world.yaml");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(WorldInvalidError);
    expect((caught as WorldInvalidError).issues).toEqual([{ code: "WORLD_READ", message: "cannot read the world model: ENOENT", file: "world.yaml" }]);
  });

  it("reports YAML syntax errors and unknown keys with their lines", () => {
    const broken = variant(["    description: Orders.", "    description: [Orders."]);
    const y = problems(broken);
    expect(y[0]?.code).toBe("WORLD_YAML");
    expect(y[0]?.line).toBeGreaterThanOrEqual(lineOf(broken, "[Orders."));
    const typo = variant(["    owner_column: client_id", "    owner_colum: client_id"]);
    expect(only(typo)).toEqual({
      code: "WORLD_SCHEMA",
      message: 'unknown key "owner_colum"',
      file: "world.yaml",
      line: lineOf(typo, "owner_colum:"),
      path: "tables[1].owner_colum",
    });
  });
});
