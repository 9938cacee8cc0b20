import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { compileWorld, type CompiledWorld } from "../../pipeline/world/compile-world.js";
import { Episode } from "../../pipeline/world/episode.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import type { WorldModel } from "../../pipeline/schemas/index.js";
import type { ToolCall } from "../../pipeline/world/types.js";
import { fixture, openEpisode } from "./fixture.js";

const q = (sql: string): ToolCall => ({ name: "query_database", args: { sql }, actor: "agent" });
const agent = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, args, actor: "agent" });
const LIMIT_MS = 150;
const limits = { timeLimitMs: LIMIT_MS, maxLength: 1_000_000 };
const ENDLESS_CTE = "WITH c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";

/** The fixture world compiled, with one operation's statements replaced: what gets past the load-time checks. */
function patched(name: string, change: (op: CompiledWorld["operations"] extends Map<string, infer C> ? C : never) => void): CompiledWorld {
  const base = compileWorld(fixture().world);
  const cop = structuredClone({ ...base.operations.get(name)!, args: undefined });
  const copy = { ...base.operations.get(name)!, op: cop.op };
  change(copy);
  const operations = new Map(base.operations);
  operations.set(name, copy);
  const world = { ...base.world, operations: base.world.operations.map((o) => (o.name === name ? copy.op : o)) };
  return { ...base, world, operations };
}

function thrown(fn: () => unknown): FoundryError {
  try {
    fn();
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a FoundryError");
}

describe("sql-guard: agent queries are bounded in time and size", () => {
  it("stops an endless CTE (no RECURSIVE keyword) at the time limit; the episode goes on", () => {
    const e = openEpisode({ sqlLimits: limits });
    expect(e.invoke(q("SELECT count(*) AS n FROM payments")).status).toBe("executed");
    const t0 = performance.now();
    const o = e.invoke(q(ENDLESS_CTE));
    const elapsed = performance.now() - t0;
    expect(o).toEqual({
      status: "errored",
      result: { error: { code: "sql_time_limit", message: `the query ran longer than ${LIMIT_MS} ms and was stopped; narrow it down`, field: "sql" } },
      reason: `sql: the query ran longer than ${LIMIT_MS} ms and was stopped; narrow it down`,
      changes: [],
    });
    expect(elapsed).toBeGreaterThanOrEqual(LIMIT_MS - 5);
    expect(elapsed).toBeLessThan(4 * LIMIT_MS);
    // The next statements run normally, on the view and on the state.
    expect((e.invoke(q("SELECT count(*) AS n FROM payments")).result as { rows: unknown[] }).rows).toEqual([{ n: 23 }]);
    expect(e.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "after" })).status).toBe("executed");
    e.close();
  });

  it("refuses a value over the size limit and cuts the answer at 64 KiB of rows", () => {
    const e = openEpisode({ sqlLimits: limits });
    const huge = e.invoke(q("SELECT printf('%.*c',100000000,'x') FROM payments LIMIT 6"));
    expect(huge.result).toEqual({ error: { code: "sql_size_limit", message: "the query produced a value larger than 1000000 bytes", field: "sql" } });
    const big = e.invoke(q("SELECT printf('%.*c', 40000, 'x') AS s FROM payments LIMIT 6"));
    const r = big.result as { rows: Array<{ s: string }>; row_count: number; truncated: boolean };
    expect([big.status, r.row_count, r.truncated, r.rows[0]?.s.length]).toEqual(["executed", 1, true, 40000]);
    expect(JSON.stringify(e.finish()).length).toBeLessThan(200_000);
    e.close();
  });

  it("lets no SQL lift the limits of its connection", () => {
    const e = openEpisode({ sqlLimits: limits });
    expect(e.invoke(q("SELECT sql_guard_config(100000, 1000000000)")).result).toEqual({
      error: { code: "query_refused", message: "the limits of this connection are already set", field: "sql" },
    });
    expect(e.invoke(q(ENDLESS_CTE)).result).toMatchObject({ error: { code: "sql_time_limit" } });
    e.close();
  });
});

describe("sql-guard: no wall clock, no connection-dependent answers", () => {
  it("refuses julianday(), unixepoch(), strftime('%s'), total_changes() and the like in the query tool", () => {
    const e = openEpisode();
    const clock = (f: string, why: string) => `${f}() ${why}: the wall clock is not available (replays must agree); use the business date and time in the data`;
    const cases: Array<[string, string]> = [
      ["SELECT julianday()", clock("julianday", "without a time value means 'now'")],
      ["SELECT unixepoch()", clock("unixepoch", "without a time value means 'now'")],
      ["SELECT strftime('%s')", clock("strftime", "without a time value means 'now'")],
      ["SELECT date('n' || 'ow')", clock("date", "with 'now'")],
      ["SELECT datetime('2026-03-02', 'local' || 'time')", clock("datetime", "with the 'localtime' modifier")],
      ["SELECT timediff('2026-03-02', upper('no' || 'w'))", clock("timediff", "with 'now'")],
      ["SELECT total_changes()", "total_changes() is not available: its answer would differ when the statement is replayed"],
      ["SELECT changes()", "changes() is not available: its answer would differ when the statement is replayed"],
      ["SELECT last_insert_rowid()", "last_insert_rowid() is not available: its answer would differ when the statement is replayed"],
      ["SELECT hex(\"randomblob\"(4))", "randomblob() is not available: its answer would differ when the statement is replayed"],
    ];
    for (const [sql, message] of cases) {
      expect({ sql, result: e.invoke(q(sql)).result }).toEqual({ sql, result: { error: { code: "query_refused", message, field: "sql" } } });
    }
    e.close();
  });

  it("computes every other date and time call exactly as SQLite does", () => {
    const e = openEpisode();
    const exprs = [
      "date('2000-02-29', '+16 years')",
      "date('2010-01-31', '+1 month')",
      "datetime(1772442000, 'unixepoch')",
      "datetime('2026-03-02 09:00', '+90 minutes', 'start of day')",
      "julianday('2026-03-02T09:00:00Z')",
      "unixepoch('2026-03-02 09:00:00', 'subsec')",
      "strftime('%Y-%m-%d %H:%M:%f %j %w', '2026-03-02 09:00:00.250')",
      "time(45000, 'unixepoch')",
      "timediff('2026-03-02', '2025-01-15 12:00')",
      "date('not a date')",
      "date(NULL)",
      "date(2461101.5)",
    ];
    const sql = `SELECT ${exprs.map((x, i) => `${x} AS c${i}`).join(", ")}`;
    const plain = new Database(":memory:");
    const expected = plain.prepare(sql).get();
    plain.close();
    expect((e.invoke(q(sql)).result as { rows: unknown[] }).rows).toEqual([expected]);
    expect(e.read("SELECT date('2000-02-29', '+16 years') AS d")).toEqual([{ d: "2016-02-29" }]);
    e.close();
  });
});

describe("sql-guard: a world statement past the bounds is a named problem", () => {
  it("a precondition that never terminates (endless CTE) raises WORLD_SQL_TIME_LIMIT naming the operation and statement", () => {
    const world = patched("release_payment", (c) => {
      (c.op.preconditions[0] as { sql: string }).sql = `SELECT (${ENDLESS_CTE}) > 0`;
    });
    const e = Episode.open(fixture().state, world, { sqlLimits: limits });
    const t0 = performance.now();
    const err = thrown(() => e.invoke(agent("release_payment", { payment_id: "PAY-00001" })));
    expect(performance.now() - t0).toBeLessThan(4 * LIMIT_MS);
    const index = world.world.operations.findIndex((o) => o.name === "release_payment");
    expect(err.toIssue()).toEqual({
      code: "WORLD_SQL_TIME_LIMIT",
      message: `operation "release_payment" precondition "payment_pending" ran longer than the SQL time limit of ${LIMIT_MS} ms (sql_time_limit_ms) and was stopped`,
      file: "world.yaml",
      path: `operations[${index}].preconditions[0].sql`,
      value: `SELECT (${ENDLESS_CTE}) > 0`,
    });
    e.close();
    // The process and other episodes are unaffected.
    const next = openEpisode({ sqlLimits: limits });
    expect(next.invoke(agent("release_payment", { payment_id: "PAY-00001" })).status).toBe("executed");
    next.close();
  });

  it("a huge cross join in a validated world's effect, and in a task's scheduled event, is stopped the same way", () => {
    const world: WorldModel = structuredClone(fixture().world);
    const join = "(SELECT count(*) FROM payments a, payments b, payments c, payments d, payments e, payments f, payments g)";
    const op = world.operations.find((o) => o.name === "add_memo")!;
    op.effects = [{ sql: `UPDATE payments SET memo = :memo || ${join} WHERE payment_id = :payment_id` }];
    const e = Episode.open(fixture().state, world, { sqlLimits: limits });
    expect(thrown(() => e.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "x" }))).toIssue()).toMatchObject({
      code: "WORLD_SQL_TIME_LIMIT",
      message: `operation "add_memo" effect 1 ran longer than the SQL time limit of ${LIMIT_MS} ms (sql_time_limit_ms) and was stopped`,
    });
    // The call's savepoint was rolled back: the state is s0.
    expect(e.contentHash()).toBe(fixture().state.hash);
    e.close();
    const task = { id: "t-join", scheduled_events: [{ id: "tally", description: "Count.", at: 5, effects: [{ sql: `INSERT INTO desk_log (entry_id, event, at) VALUES (:call, 'tally', ${join})` }] }] };
    const ev = openEpisode({ task, sqlLimits: limits });
    expect(thrown(() => ev.wait(10)).toIssue()).toMatchObject({
      code: "WORLD_SQL_TIME_LIMIT",
      message: `scheduled event "tally" effect 1 ran longer than the SQL time limit of ${LIMIT_MS} ms (sql_time_limit_ms) and was stopped`,
      path: "scheduled_events[0].effects[0].sql",
    });
    ev.close();
  });

  it("an effect that reads the wall clock is refused at run time (WORLD_SQL_NONDETERMINISTIC)", () => {
    const world = patched("add_memo", (c) => {
      c.op.effects = [{ sql: "UPDATE payments SET released_at = CAST(strftime('%s') AS INTEGER) WHERE payment_id = :payment_id" }];
    });
    const e = Episode.open(fixture().state, world);
    const err = thrown(() => e.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "x" })));
    expect([err.code, err.message]).toEqual([
      "WORLD_SQL_NONDETERMINISTIC",
      `operation "add_memo" effect 1 was refused at run time: strftime() without a time value means 'now': the wall clock is not available (replays must agree); use the business date and time in the data`,
    ]);
    expect(e.contentHash()).toBe(fixture().state.hash);
    e.close();
    // CURRENT_TIMESTAMP is a keyword, but SQLite parses it into a call of the function current_timestamp(): the engine refuses it too.
    const keyword = patched("add_memo", (c) => {
      c.op.effects = [{ sql: "UPDATE payments SET memo = CURRENT_TIMESTAMP WHERE payment_id = :payment_id" }];
    });
    const k = Episode.open(fixture().state, keyword);
    expect(thrown(() => k.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "x" }))).message).toBe(
      'operation "add_memo" effect 1 was refused at run time: current_timestamp() is not available: its answer would differ when the statement is replayed',
    );
    k.close();
  });
});
