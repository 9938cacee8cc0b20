import { describe, expect, it } from "vitest";
import { Trace as TraceSchema, type Trace } from "../../pipeline/schemas/index.js";
import { replay } from "../../pipeline/world/replay.js";
import { fixture, openEpisode } from "./fixture.js";
import type { Invoke } from "../../pipeline/world/types.js";

const TASK = { id: "move-funds" };
const terms = { from_account: "ACC-001", to_account: "ACC-002", amount: 5000 };

function recordGolden(): Trace {
  const e = openEpisode({ task: TASK, role: "golden" });
  e.say("customer", "Please move 5,000 from ACC-001 to ACC-002.", ["transfer_request"]);
  e.invoke({ name: "get_payment", args: { payment_id: "PAY-00001" }, actor: "agent" });
  e.invoke({ name: "execute_transfer", args: terms, actor: "agent" });
  e.invoke({ name: "propose_transfer", args: terms, actor: "agent" });
  e.invoke({ name: "approve_transfer", args: { proposal_id: "PR-0001" }, actor: "customer" });
  e.invoke({ name: "execute_transfer", args: terms, actor: "agent" });
  e.invoke({ name: "get_payment", args: { payment_id: "nope" }, actor: "agent" });
  e.invoke({ name: "request_fx_quote", args: { client_id: "CL-001", pair: "EURUSD" }, actor: "agent" });
  e.invoke({ name: "query_database", args: { sql: "SELECT balance FROM accounts WHERE account_id = 'ACC-002'" }, actor: "agent" });
  e.wait(45);
  e.say("agent", "Done.");
  const trace = e.finish();
  e.close();
  return trace;
}

describe("replay", () => {
  it("replays a recorded trace with no mismatches and an identical trace", () => {
    const { world, state } = fixture();
    const trace = recordGolden();
    expect(TraceSchema.parse(trace)).toEqual(trace);
    expect(trace.events.map((ev) => ev.kind)).toEqual([
      "customer_message",
      "tool_call",
      "tool_call",
      "proposal",
      "approval",
      "tool_call",
      "tool_call",
      "tool_call",
      "tool_call",
      "wait",
      "scheduled_event",
      "agent_message",
    ]);
    const res = replay(trace, world, state, TASK);
    expect(res.mismatches).toEqual([]);
    expect(res.ok).toBe(true);
    expect(res.trace).toEqual(trace);
    expect(replay(trace, world, state, TASK, [], { isolation: "copy" }).trace).toEqual(trace);
  });

  it("reports a tampered result as the exact mismatch", () => {
    const { world, state } = fixture();
    const trace = recordGolden();
    const tampered: Trace = structuredClone(trace);
    const ev = tampered.events[5];
    if (!ev) throw new Error("fixture trace too short");
    ev.result = { transfer_id: 6, amount: 50000 };
    const res = replay(tampered, world, state, TASK);
    expect(res.ok).toBe(false);
    expect(res.mismatches).toEqual([{ index: 6, field: "result", recorded: { transfer_id: 6, amount: 50000 }, replayed: { transfer_id: 6, amount: 5000 } }]);
  });

  it("reports tampered changes, status and the final state hash", () => {
    const { world, state } = fixture();
    const tampered: Trace = structuredClone(recordGolden());
    const ev = tampered.events[2];
    if (!ev) throw new Error("fixture trace too short");
    ev.status = "executed";
    ev.changes = [{ table: "accounts", key: "ACC-001", before: { balance: 100000 }, after: { balance: 95000 } }];
    const res = replay(tampered, world, state, TASK);
    expect(res.mismatches.map((m) => [m.index, m.field])).toEqual([
      [3, "status"],
      [3, "changes"],
    ]);
  });

  it("replays faulted events as the fault did: explicit runs nothing, implicit runs and keeps the degraded result", () => {
    const { world, state } = fixture();
    const wrap = (inner: Invoke): Invoke => (call) => {
      if (call.name === "get_payment") return { status: "faulted", result: { error: { code: "http_500", message: "Internal Server Error" } }, changes: [], fault: { mode: "explicit", type: "http_500", detail: "HTTP 500", fault_event: 0 } };
      if (call.name === "add_memo") return { ...inner(call), status: "faulted", result: { payment_id: "PAY-00001", memo: "" }, fault: { mode: "implicit", type: "emptied_value", detail: "emptied memo", fault_event: 1 } };
      return inner(call);
    };
    const e = openEpisode({ task: TASK, wrap, condition: "E3" });
    e.invoke({ name: "get_payment", args: { payment_id: "PAY-00001" }, actor: "agent" });
    e.invoke({ name: "add_memo", args: { payment_id: "PAY-00001", memo: "seen" }, actor: "agent" });
    e.invoke({ name: "release_payment", args: { payment_id: "PAY-00001" }, actor: "agent" });
    const trace = e.finish();
    e.close();
    expect(trace.events.map((ev) => [ev.kind, ev.status, ev.changes.length])).toEqual([
      ["fault", "faulted", 0],
      ["tool_call", "faulted", 1],
      ["tool_call", "executed", 2],
    ]);
    const res = replay(trace, world, state, TASK);
    expect(res.mismatches).toEqual([]);
    expect(res.trace).toEqual(trace);
  });
});
