import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Trace } from "../../pipeline/schemas/index.js";
import { replay } from "../../pipeline/world/replay.js";
import { boundResult, RESULT_MAX_CHARS } from "../../pipeline/world/trace-bounds.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { Episode } from "../../pipeline/world/episode.js";
import { fixture, openEpisode } from "./fixture.js";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("trace bounds", () => {
  it("refuses a 1 MB argument as invalid_argument, stores a cut marker, and replays", () => {
    const memo = "m".repeat(1_000_000);
    const e = openEpisode({ task: { id: "t-big" } });
    const o = e.invoke({ name: "add_memo", args: { payment_id: "PAY-00001", memo }, actor: "agent" });
    const message = 'argument "memo" is 1000000 characters long; at most 10000 are accepted';
    expect(o).toEqual({ status: "errored", result: { error: { code: "invalid_argument", message, field: "memo" } }, reason: `memo: ${message}`, changes: [] });
    // Through invoke_capability too: the nested arguments are one argument over the bound.
    const nested = e.invoke({ name: "invoke_capability", args: { name: "add_memo", args: { payment_id: "PAY-00001", memo } }, actor: "agent" });
    expect((nested.result as { error: { code: string; field: string } }).error).toMatchObject({ code: "invalid_argument", field: "args" });
    expect(e.invoke({ name: "get_payment", args: { payment_id: "PAY-00001" }, actor: "agent" }).status).toBe("executed");
    const trace = e.finish();
    e.close();
    expect(trace.events[0]?.args).toEqual({ payment_id: "PAY-00001", memo: { $cut: true, length: 1_000_000, sha256: sha(memo) } });
    expect(trace.events[0]?.status).toBe("errored");
    const nestedArgs = { name: "add_memo", args: { payment_id: "PAY-00001", memo } };
    expect(trace.events[1]?.args).toEqual({ name: "add_memo", args: { $cut: true, length: canonicalJson(nestedArgs.args).length, sha256: sha(canonicalJson(nestedArgs.args)) } });
    expect(JSON.stringify(trace).length).toBeLessThan(10_000);
    expect(Trace.safeParse(trace).success).toBe(true);
    const r = replay(trace, fixture().world, fixture().state, { id: "t-big" });
    expect(r.mismatches).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it("keeps a result over 100,000 characters or with a list over 1000 items as a marker; the caller sees it whole", () => {
    const small = { rows: [{ a: 1 }], row_count: 1 };
    expect(boundResult(small)).toBe(small);
    const long = { text: "x".repeat(RESULT_MAX_CHARS) };
    expect(boundResult(long)).toEqual({ $cut: true, length: canonicalJson(long).length, sha256: sha(canonicalJson(long)) });
    const list = Array.from({ length: 1001 }, (_, i) => i);
    expect(boundResult({ ids: list })).toMatchObject({ $cut: true, length: canonicalJson({ ids: list }).length });
    expect(boundResult({ ids: list.slice(0, 1000) })).toEqual({ ids: list.slice(0, 1000) });

    // A world result view of 2000 rows: the agent gets every row, the trace a marker, and the replay agrees.
    const world = structuredClone(fixture().world);
    const op = world.operations.find((x) => x.name === "list_payments")!;
    op.result = { sql: "SELECT a.payment_id, b.payment_id AS other FROM payments a, payments b, payments c WHERE :client_id IS NOT NULL ORDER BY 1, 2 LIMIT 2000", many: true };
    const task = { id: "t-many" };
    const e = Episode.open(fixture().state, world, { task });
    const o = e.invoke({ name: "list_payments", args: { client_id: "CL-001" }, actor: "agent" });
    expect([o.status, (o.result as unknown[]).length]).toEqual(["executed", 2000]);
    const trace = e.finish();
    const text = canonicalJson(o.result);
    expect(trace.events[0]?.result).toEqual({ $cut: true, length: text.length, sha256: sha(text) });
    expect(Trace.safeParse(trace).success).toBe(true);
    expect(replay(trace, world, fixture().state, task).mismatches).toEqual([]);
    e.close();
  });
});
