import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadWorld, parseWorld } from "../../pipeline/world/load-world.js";
import { buildBaseState } from "../../pipeline/world/build-state.js";
import { Episode } from "../../pipeline/world/episode.js";
import type { ToolCall } from "../../pipeline/world/types.js";

const FILE = fileURLToPath(new URL("../fixtures/world/shorthands.yaml", import.meta.url));
const README = readFileSync(fileURLToPath(new URL("../../sources/README.md", import.meta.url)), "utf8");
const world = loadWorld(FILE, "shorthands.yaml");
const state = buildBaseState(world, { seed: 3 });
const agent = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, args, actor: "agent" });
const op = (name: string) => world.operations.find((o) => o.name === name)!;

/** Each shorthand of the fixture and the exact SQL sources/README.md says it compiles to. */
const EXPANSIONS: Array<[string, () => string, string]> = [
  ["exists", () => op("get_payment").preconditions[0]!.sql, "SELECT COUNT(*) = 1 FROM payments WHERE payment_id = :payment_id"],
  ["transition (precondition)", () => op("release_payment").preconditions[0]!.sql, "SELECT COUNT(*) = 1 FROM payments WHERE payment_id = :payment_id AND status = 'validated'"],
  ["transition (effect, last)", () => op("release_payment").effects.at(-1)!.sql, "UPDATE payments SET status = 'released', released_at = :now WHERE payment_id = :payment_id"],
  ["owned", () => op("release_payment").preconditions[1]!.sql, "SELECT COUNT(*) = 1 FROM payments WHERE payment_id = :payment_id AND client_id = :client_id"],
  ["limit against a rule's value", () => op("release_payment").preconditions[2]!.sql, "SELECT COUNT(*) = 1 FROM payments WHERE payment_id = :payment_id AND amount <= 50000"],
  [
    "referenced",
    () => op("release_payment").preconditions[3]!.sql,
    "SELECT COUNT(*) = 1 FROM payments p JOIN beneficiaries b ON b.beneficiary_id = p.beneficiary_id WHERE p.payment_id = :payment_id AND b.client_id = p.client_id AND b.verification_status = 'verified'",
  ],
  ["in_state", () => op("annotate_payment").preconditions[0]!.sql, "SELECT COUNT(*) = 1 FROM payments WHERE payment_id = :payment_id AND status IN ('received', 'validated') AND released_at IS NULL"],
  ["update (set from parameters)", () => op("annotate_payment").effects[0]!.sql, "UPDATE payments SET note = :note WHERE payment_id = :payment_id"],
  [
    "insert into an ordered table",
    () => op("add_line").effects[0]!.sql,
    "INSERT INTO payment_lines (payment_id, invoice_ref, line_no) VALUES (:payment_id, :invoice_ref, (SELECT COALESCE(MAX(line_no), 0) + 1 FROM payment_lines WHERE payment_id = :payment_id))",
  ],
  [
    "insert … from (parameters, the current time, the parent row)",
    () => op("request_recall").effects[0]!.sql,
    "INSERT INTO recalls (recall_id, payment_id, client_id, reason, requested_at, status) SELECT printf('RCL-%03d', :call), payment_id, client_id, :reason, :now, 'sent' FROM payments WHERE payment_id = :payment_id",
  ],
  ["result by key", () => op("get_payment").result!.sql, "SELECT payment_id, status, amount FROM payments WHERE payment_id = :payment_id"],
  ["result by column, ordered", () => op("list_lines").result!.sql, "SELECT line_no, invoice_ref FROM payment_lines WHERE payment_id = :payment_id ORDER BY payment_id, line_no"],
];

describe("world.yaml shorthands", () => {
  it.each(EXPANSIONS)("%s compiles to the SQL sources/README.md documents", (_name, actual, expected) => {
    expect(actual()).toBe(expected);
    expect(README).toContain(expected);
  });

  it("a transition's precondition comes first and its update last; lists default to many", () => {
    expect(op("release_payment").preconditions.map((p) => p.id)).toEqual(["payment_validated", "own_payment", "within_limit", "payee_verified"]);
    expect(op("release_payment").preconditions[0]!.rule).toBe("R-LIMIT");
    expect(op("list_lines").result!.many).toBe(true);
    expect(op("get_payment").result!.many).toBe(false);
  });

  it("behaves in an episode as its SQL says: each refusal on its own row, the writes on success", () => {
    const e = Episode.open(state, world);
    const reason = (call: ToolCall) => {
      const o = e.invoke(call);
      return o.status === "rejected" ? o.reason : o.status;
    };
    expect(reason(agent("get_payment", { payment_id: "PAY-9" }))).toBe("payment_exists: No payment with this reference.");
    expect(reason(agent("release_payment", { payment_id: "PAY-3", client_id: "CL-2" }))).toBe("payment_validated: Only a validated payment can be released.");
    expect(reason(agent("release_payment", { payment_id: "PAY-1", client_id: "CL-2" }))).toBe("own_payment: The payment is not the client's.");
    expect(reason(agent("release_payment", { payment_id: "PAY-2", client_id: "CL-1" }))).toBe("within_limit: Above the officer limit.");
    expect(reason(agent("release_payment", { payment_id: "PAY-4", client_id: "CL-1" }))).toBe("payee_verified: The beneficiary is not verified.");
    e.wait(5);
    const released = e.invoke(agent("release_payment", { payment_id: "PAY-1", client_id: "CL-1" }));
    expect(released.status).toBe("executed");
    expect(released.result).toEqual({ payment_id: "PAY-1", status: "released", released_at: 5 });
    expect(released.changes.map((c) => [c.table, c.key, c.after?.status])).toEqual([["payments", "PAY-1", "released"]]);
    expect(reason(agent("annotate_payment", { payment_id: "PAY-1", note: "late" }))).toBe("unreleased: Only an unreleased payment takes a note.");
    expect(e.invoke(agent("annotate_payment", { payment_id: "PAY-3", note: "call back" })).changes.map((c) => c.after?.note)).toEqual(["call back"]);
    const recall = e.invoke(agent("request_recall", { payment_id: "PAY-1", reason: "duplicate" }));
    const index = e.events.length;
    expect(recall.result).toEqual({ recall_id: `RCL-${String(index).padStart(3, "0")}`, status: "sent" });
    expect(recall.changes).toEqual([
      { table: "recalls", key: `RCL-${String(index).padStart(3, "0")}`, before: null, after: { client_id: "CL-1", payment_id: "PAY-1", reason: "duplicate", recall_id: `RCL-${String(index).padStart(3, "0")}`, requested_at: 5, status: "sent" } },
    ]);
    e.close();
  });

  it("an ordered child table: fixed rows numbered per parent, inserts take the next position, rows keyed by their composite key", () => {
    const lines = world.tables.find((t) => t.name === "payment_lines")!;
    expect(lines.primary_key).toBe("row_key");
    expect(lines.key_columns).toEqual(["payment_id", "line_no"]);
    expect(lines.rows.map((r) => [r.payment_id, r.line_no])).toEqual([["PAY-1", 1], ["PAY-1", 2], ["PAY-2", 1]]);
    const e = Episode.open(state, world);
    const added = e.invoke(agent("add_line", { payment_id: "PAY-1", invoice_ref: "INV-12" }));
    expect(added.changes).toEqual([{ table: "payment_lines", key: '["PAY-1",3]', before: null, after: { invoice_ref: "INV-12", line_no: 3, payment_id: "PAY-1", row_key: '["PAY-1",3]' } }]);
    expect(e.invoke(agent("add_line", { payment_id: "PAY-3", invoice_ref: "INV-30" })).changes[0]!.key).toBe('["PAY-3",1]');
    expect(e.invoke(agent("list_lines", { payment_id: "PAY-1" })).result).toEqual([
      { line_no: 1, invoice_ref: "INV-10" },
      { line_no: 2, invoice_ref: "INV-11" },
      { line_no: 3, invoice_ref: "INV-12" },
    ]);
    // The agent's query view holds the same rows, keyed the same way.
    expect(e.invoke(agent("query_database", { sql: "SELECT row_key FROM payment_lines WHERE payment_id = 'PAY-1' ORDER BY line_no" })).result).toMatchObject({ rows: [{ row_key: '["PAY-1",1]' }, { row_key: '["PAY-1",2]' }, { row_key: '["PAY-1",3]' }] });
    e.close();
  });

  it("refuses what a shorthand cannot mean, naming the line", () => {
    const text = readFileSync(FILE, "utf8");
    const lineOf = (needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
    const bad = (from: string, to: string) => parseWorld(text.replace(from, to), "world.yaml").problems.map((p) => [p.code, p.line, p.path, p.message]);
    expect(bad("{ id: payment_exists, exists: payments,", "{ id: payment_exists, exists: payments, where: { status: x },")).toEqual([
      ["WORLD_SHORTHAND", lineOf("id: payment_exists"), "operations[0].preconditions[0].where", "`where` does not apply to `exists` (it takes: param)"],
    ]);
    expect(bad("at_most: { rule: R-LIMIT }", "at_most: { rule: R-NONE }")).toEqual([["WORLD_SHORTHAND", lineOf("id: within_limit"), "operations[2].preconditions[1].at_most", 'unknown rule "R-NONE"']]);
    expect(bad("{ id: own_payment, owned: payments,", "{ id: own_payment, owned: payment_lines,")).toEqual([
      ["WORLD_SHORTHAND", lineOf("id: own_payment"), "operations[2].preconditions[0].owned", 'table "payment_lines" has no owner_column, so `owned` cannot tell whose row it is'],
    ]);
    // A shorthand whose SQL names a column that does not exist is caught when the SQL is prepared, at the shorthand's line.
    expect(bad("set: { note: \":note\" }", "set: { memo: \":note\" }").map(([code, line, path]) => [code, line, path])).toEqual([["WORLD_SQL", lineOf("update: payments"), "operations[3].effects[0].sql"]]);
    expect(bad("transition: { table: payments, from: validated", "transition: { table: payments, column: state, from: validated").map(([code, line, path]) => [code, line, path])).toEqual([
      ["WORLD_SQL", lineOf("transition:"), "operations[2].transition.sql"],
      ["WORLD_SQL", lineOf("transition:"), "operations[2].transition.sql"],
    ]);
    expect(bad("      - { payment_id: PAY-2, invoice_ref: INV-20 }", "      - { payment_id: PAY-2, invoice_ref: INV-20, row_key: x }")).toEqual([
      ["WORLD_ROW_GENERATED", lineOf("INV-20"), "tables[3].rows[2].row_key", '"payment_lines.row_key" is computed by the runtime from payment_id, line_no; leave it out'],
    ]);
  });
});
