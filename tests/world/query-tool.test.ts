import { describe, expect, it } from "vitest";
import { openEpisode } from "./fixture.js";

const q = (sql: string) => ({ name: "query_database", args: { sql }, actor: "agent" as const });

describe("query_database", () => {
  it("refuses every write, schema trick and hidden data, as errored outcomes with no state change", () => {
    const e = openEpisode();
    const refused: Array<[string, string, string]> = [
      ["INSERT INTO desk_log VALUES (1, 'x', 0)", "query_refused", "only a single SELECT statement is allowed, got INSERT"],
      ["UPDATE accounts SET balance = 0", "query_refused", "only a single SELECT statement is allowed, got UPDATE"],
      ["DELETE FROM payments", "query_refused", "only a single SELECT statement is allowed, got DELETE"],
      ["ATTACH DATABASE ':memory:' AS other", "query_refused", "only a single SELECT statement is allowed, got ATTACH"],
      ["PRAGMA user_version=5", "query_refused", "only a single SELECT statement is allowed, got PRAGMA"],
      ["INSERT INTO desk_log VALUES (1, 'x', 0) RETURNING *", "query_refused", "only a single SELECT statement is allowed, got INSERT"],
      ["WITH x AS (SELECT 1) INSERT INTO desk_log VALUES (1, 'x', 0) RETURNING *", "query_refused", "only a single read-only SELECT statement is allowed"],
      ["SELECT 1; DELETE FROM payments", "invalid_sql", "The supplied SQL string contains more than one statement"],
      ["SELECT * FROM _proposals", "query_refused", '"_proposals" is not available to queries'],
      ["SELECT _capture('payments', 'd', 'PAY-00001')", "query_refused", '"_capture" is not available to queries'],
      ["SELECT load_extension('/tmp/x')", "invalid_sql", "not authorized"],
      ["SELECT sql FROM sqlite_master", "query_refused", '"sqlite_master" is not available to queries'],
      ["SELECT * FROM pragma_table_info('accounts')", "query_refused", '"pragma_table_info" is not available to queries'],
      ["SELECT account_id FROM accounts WHERE risk_score > 5", "query_refused", 'column "risk_score" is not available to queries'],
      ["WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n", "query_refused", "recursive queries are not allowed"],
      ["SELECT * FROM payments WHERE payment_id = :id", "query_refused", "parameters are not allowed; write the values into the query"],
      ["SELECT nope FROM payments", "invalid_sql", "no such column: nope"],
      ["SELECT payment_id FROM payments ORDER BY random() LIMIT 1", "query_refused", "random is not available: its answer would differ when the call is replayed"],
      ["SELECT date('now')", "query_refused", "the wall clock ('now') is not available; the business date and time are in the data"],
    ];
    for (const [sql, code, message] of refused) {
      const o = e.invoke(q(sql));
      expect({ sql, status: o.status, result: o.result, changes: o.changes }).toEqual({ sql, status: "errored", result: { error: { code, message, field: "sql" } }, changes: [] });
    }
    // `SELECT *` runs on the agent view, where the hidden column does not exist: it answers with the visible ones.
    for (const sql of ["SELECT * FROM accounts", "SELECT * FROM (SELECT * FROM accounts)"]) {
      const o = e.invoke(q(sql));
      expect([o.status, (o.result as { columns: string[] }).columns.includes("risk_score")]).toEqual(["executed", false]);
    }
    expect(e.read("PRAGMA user_version")).toEqual([{ user_version: 0 }]);
    expect(e.read("SELECT count(*) AS n FROM desk_log")).toEqual([{ n: 0 }]);
    expect(e.read("SELECT count(*) AS n FROM payments")).toEqual([{ n: 23 }]);
    expect(e.finish().final_state_hash).toBe(e.initial.hash);
    // The connection is writable again afterwards (query_only was switched back off).
    expect(e.invoke({ name: "add_memo", args: { payment_id: "PAY-00001", memo: "ok" }, actor: "agent" }).status).toBe("executed");
    e.close();
  });

  it("answers a plain SELECT, stopping at 50 rows and saying it truncated", () => {
    const e = openEpisode();
    const small = e.invoke(q("SELECT payment_id, amount FROM payments WHERE client_id = 'CL-001' AND payment_id <= 'PAY-00002' ORDER BY payment_id"));
    expect(small).toEqual({
      status: "executed",
      result: {
        columns: ["payment_id", "amount"],
        rows: [
          { payment_id: "PAY-00001", amount: 5000 },
          { payment_id: "PAY-00002", amount: 90000 },
        ],
        row_count: 2,
        truncated: false,
      },
      changes: [],
    });
    const big = e.invoke(q("SELECT a.account_id, b.account_id AS other FROM accounts a, accounts b ORDER BY 1, 2"));
    const r = big.result as { rows: unknown[]; row_count: number; truncated: boolean };
    expect([big.status, r.rows.length, r.row_count, r.truncated]).toEqual(["executed", 50, 50, true]);
    expect(r.rows[0]).toEqual({ account_id: "ACC-001", other: "ACC-001" });
    e.close();
  });
});
