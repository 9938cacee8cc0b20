import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { loadWorld } from "../../pipeline/world/load-world.js";
import { buildBaseState } from "../../pipeline/world/build-state.js";
import { compileWorld } from "../../pipeline/world/compile-world.js";
import { Episode } from "../../pipeline/world/episode.js";
import { agentViewBuffer } from "../../pipeline/world/agent-view.js";
import { fixture, openEpisode } from "./fixture.js";
import type { ToolCall } from "../../pipeline/world/types.js";

const q = (sql: string): ToolCall => ({ name: "query_database", args: { sql }, actor: "agent" });
const agent = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, args, actor: "agent" });
const rows = (e: Episode, sql: string) => {
  const o = e.invoke(q(sql));
  expect(o.status).toBe("executed");
  return (o.result as { rows: unknown[] }).rows;
};

const FX_WORLD = fileURLToPath(new URL("../../sources/fx-treasury/world.yaml", import.meta.url));

describe("agent view: hidden columns do not exist where agent queries run", () => {
  const world = loadWorld(FX_WORLD, "world.yaml");
  const state = buildBaseState(world, { seed: 46 });
  // The customer-only set-up form references of the two beneficiaries awaiting call-back.
  const secrets = ["BSF-2026-0398", "BSF-2026-0412"];

  it("the CTE column-list and ORDER BY position queries get a tool error and no hidden value", () => {
    const leaks = [
      "WITH t(a,b,c,d,e,f,g,h) AS (SELECT * FROM beneficiaries) SELECT a, g || '' FROM t WHERE a IN ('BEN-1014','BEN-1061')",
      "WITH t(a,b,c,d,e,f,g,h) AS (SELECT * FROM beneficiaries) SELECT a, b, c, d, e, f, h, g || '' FROM t WHERE a = 'BEN-1014' UNION ALL SELECT a, b, c, d, e, f, h, g || '' FROM t WHERE a = 'BEN-1061' ORDER BY 8",
    ];
    for (const copy of ["copy", "reuse"] as const) {
      const e = Episode.open(state, world, { isolation: copy });
      for (const sql of leaks) {
        const o = e.invoke(q(sql));
        expect({ sql, status: o.status, result: o.result }).toEqual({
          sql,
          status: "errored",
          result: { error: { code: "invalid_sql", message: "table t has 7 values for 8 columns", field: "sql" } },
        });
        const recorded = JSON.stringify(e.finish());
        for (const s of secrets) expect(recorded).not.toContain(s);
      }
      e.close();
    }
  });

  it("has only the visible columns of the world tables: no hidden column, no _ table, no trigger, no index on a hidden column", () => {
    const compiled = compileWorld(world);
    const db = new Database(agentViewBuffer(state.buffer, compiled));
    try {
      const objects = db.prepare("SELECT type, name, tbl_name FROM sqlite_schema ORDER BY type, name").all() as Array<{ type: string; name: string; tbl_name: string }>;
      expect(objects.filter((o) => o.type === "table").map((o) => o.name)).toEqual(world.tables.map((t) => t.name).sort());
      expect(objects.filter((o) => o.type === "trigger")).toEqual([]);
      for (const t of world.tables) {
        const cols = (db.prepare(`SELECT name FROM pragma_table_info('${t.name}')`).pluck().all() as string[]).sort();
        expect({ table: t.name, cols }).toEqual({ table: t.name, cols: t.columns.filter((c) => !c.hidden).map((c) => c.name).sort() });
      }
      const hidden = new Set(world.tables.flatMap((t) => t.columns.filter((c) => c.hidden).map((c) => `${t.name}.${c.name}`)));
      expect(hidden.has("beneficiaries.setup_form_ref")).toBe(true);
      for (const idx of objects.filter((o) => o.type === "index")) {
        const cols = db.prepare(`SELECT name FROM pragma_index_info('${idx.name}')`).pluck().all() as string[];
        for (const c of cols) expect(hidden.has(`${idx.tbl_name}.${c}`)).toBe(false);
      }
      const bytes = agentViewBuffer(state.buffer, compiled).toString("latin1");
      for (const s of secrets) expect(bytes).not.toContain(s);
    } finally {
      db.close();
    }
  });
});

describe("agent view: kept in step with the episode's state", () => {
  it("tracks an executed write, a rejected call, a rolled-back call and a scheduled event", () => {
    const e = openEpisode();
    const memo = "SELECT memo FROM payments WHERE payment_id = 'PAY-00001'";
    expect(rows(e, memo)).toEqual([{ memo: null }]);
    expect(e.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "checked" })).status).toBe("executed");
    expect(rows(e, memo)).toEqual([{ memo: "checked" }]);

    // Rejected by a precondition: nothing changes in the view either.
    expect(e.invoke(agent("release_payment", { payment_id: "PAY-00003" })).status).toBe("rejected");
    expect(rows(e, "SELECT status FROM payments WHERE payment_id = 'PAY-00003'")).toEqual([{ status: "released" }]);

    // The first effect runs, the second fails: the savepoint rolls back and the view keeps the old balance.
    const balance = "SELECT balance FROM accounts WHERE account_id = 'ACC-001'";
    const before = rows(e, balance);
    expect(e.invoke(agent("adjust_account", { account_id: "ACC-001", balance: 1 })).status).toBe("errored");
    expect(rows(e, balance)).toEqual(before);

    // An insert by a call, then an update by a scheduled event.
    const quote = e.invoke(agent("request_fx_quote", { client_id: "CL-001", pair: "EURUSD" }));
    const id = (quote.result as { quote_id: string }).quote_id;
    expect(rows(e, `SELECT status FROM fx_quotes WHERE quote_id = '${id}'`)).toEqual([{ status: "open" }]);
    e.wait(30);
    expect(e.events.at(-1)?.name).toBe("quote_expiry");
    expect(rows(e, `SELECT status FROM fx_quotes WHERE quote_id = '${id}'`)).toEqual([{ status: "expired" }]);
    // The view equals the state's visible columns, row for row and in the same scan order.
    const visible = "SELECT payment_id, client_id, account_id, amount, status, memo, released_at FROM payments";
    expect(rows(e, `${visible} LIMIT 50`)).toEqual(e.read(`${visible} LIMIT 50`));
    e.close();
  });

  it("is rolled back to s0 with a reused connection", () => {
    const memo = "SELECT memo FROM payments WHERE payment_id = 'PAY-00001'";
    const a = openEpisode({ isolation: "reuse" });
    expect(rows(a, memo)).toEqual([{ memo: null }]);
    a.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "first episode" }));
    expect(rows(a, memo)).toEqual([{ memo: "first episode" }]);
    a.close();
    const b = openEpisode({ isolation: "reuse" });
    expect(rows(b, memo)).toEqual([{ memo: null }]);
    b.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "second episode" }));
    expect(rows(b, memo)).toEqual([{ memo: "second episode" }]);
    expect(b.contentHash()).not.toBe(fixture().state.hash);
    b.close();
  });
});
