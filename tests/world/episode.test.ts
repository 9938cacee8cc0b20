import { describe, expect, it } from "vitest";
import { fixture, openEpisode } from "./fixture.js";
import type { ToolCall } from "../../pipeline/world/types.js";

const agent = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, args, actor: "agent" });
const customer = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, args, actor: "customer" });

describe("episode", () => {
  it("isolates episodes: a write in one is invisible to another opened from the same state", () => {
    const a = openEpisode();
    const b = openEpisode();
    expect(a.invoke(agent("release_payment", { payment_id: "PAY-00001" })).status).toBe("executed");
    expect(a.read("SELECT status FROM payments WHERE payment_id = 'PAY-00001'")).toEqual([{ status: "released" }]);
    expect(b.read("SELECT status FROM payments WHERE payment_id = 'PAY-00001'")).toEqual([{ status: "pending" }]);
    expect(b.contentHash()).toBe(fixture().state.hash);
    a.close();
    b.close();
  });

  it("reuse isolation rolls a pooled connection back to s0; episodes open at once never share one", () => {
    const a = openEpisode({ isolation: "reuse" });
    const b = openEpisode({ isolation: "reuse" });
    a.invoke(agent("release_payment", { payment_id: "PAY-00001" }));
    expect(b.read("SELECT status FROM payments WHERE payment_id = 'PAY-00001'")).toEqual([{ status: "pending" }]);
    a.close();
    b.close();
    const c = openEpisode({ isolation: "reuse" });
    expect(c.read("SELECT status FROM payments WHERE payment_id = 'PAY-00001'")).toEqual([{ status: "pending" }]);
    expect(c.contentHash()).toBe(fixture().state.hash);
    // The reused connection still captures changes after the rollback.
    expect(c.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "again" })).changes.map((ch) => ch.after?.memo)).toEqual(["again"]);
    c.close();
    expect(() => c.invoke(agent("get_payment", { payment_id: "PAY-00001" }))).toThrow("the episode is closed; open a new one");
  });

  it("captures a REPLACE as one change from the old row to the new one", () => {
    const replaceAt = (id: string, at: number) => ({ id, description: "Overwrite entry 1.", at, effects: [{ sql: `INSERT OR REPLACE INTO desk_log (entry_id, event, at) VALUES (1, '${id}', :now)` }] });
    const e = openEpisode({ task: { id: "t-replace", scheduled_events: [replaceAt("first", 1), replaceAt("second", 2)] } });
    e.wait(5);
    expect(e.events.slice(1).map((ev) => ev.changes)).toEqual([
      [{ table: "desk_log", key: 1, before: null, after: { entry_id: 1, event: "first", at: 1 } }],
      [{ table: "desk_log", key: 1, before: { entry_id: 1, event: "first", at: 1 }, after: { entry_id: 1, event: "second", at: 2 } }],
    ]);
    e.close();
  });

  it("returns errored outcomes naming the field for bad arguments, and unknown tools", () => {
    const e = openEpisode();
    const cases: Array<[ToolCall, string, string]> = [
      [agent("get_payment", { payment_id: "PAY-1" }), "payment_id", "payment_id does not match the pattern ^PAY-\\d{5}$"],
      [agent("get_payment", {}), "payment_id", "payment_id is required"],
      [agent("get_payment", { payment_id: 12345 }), "payment_id", "payment_id must be a string, got number"],
      [agent("get_payment", { payment_id: "PAY-00001", extra: 1 }), "extra", 'unknown argument "extra"'],
      [agent("add_memo", { payment_id: "PAY-00001", memo: "x".repeat(81) }), "memo", "memo is longer than 80 characters"],
      [agent("request_fx_quote", { client_id: "CL-001", pair: "USDJPY" }), "pair", 'pair must be one of "EURUSD", "EURGBP"'],
      [agent("propose_transfer", { from_account: "ACC-001", to_account: "ACC-002", amount: 0 }), "amount", "amount must be at least 0.01"],
    ];
    for (const [call, field, message] of cases) {
      const o = e.invoke(call);
      expect(o).toEqual({ status: "errored", result: { error: { code: "invalid_argument", field, message } }, reason: `${field}: ${message}`, changes: [] });
    }
    expect(e.invoke({ name: "get_payment", args: "PAY-00001" as unknown as Record<string, unknown>, actor: "agent" }).result).toEqual({
      error: { code: "invalid_argument", field: "payment_id", message: "payment_id is required" },
    });
    expect(e.invoke(agent("drop_everything"))).toEqual({
      status: "errored",
      result: { error: { code: "unknown_tool", message: 'no tool named "drop_everything"' } },
      reason: 'no tool named "drop_everything"',
      changes: [],
    });
    expect(e.invoke(customer("release_payment", { payment_id: "PAY-00001" })).result).toEqual({
      error: { code: "not_permitted", message: "release_payment is an agent-side tool; the customer cannot call it" },
    });
    expect(e.invoke(agent("approve_transfer", { proposal_id: "PR-0001" })).result).toEqual({
      error: { code: "not_permitted", message: "approve_transfer is a customer-side action; the agent cannot call it" },
    });
    const trace = e.finish();
    expect(trace.events.map((ev) => [ev.index, ev.status])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((i) => [i, "errored"]));
    expect(trace.events[7]?.args).toEqual({ _args: "PAY-00001" });
    expect(trace.final_state_hash).toBe(trace.initial_state_hash);
    e.close();
  });

  it("rejects a call whose precondition fails: reason names it, nothing changes, state hash unchanged", () => {
    const e = openEpisode();
    const o = e.invoke(agent("release_payment", { payment_id: "PAY-00003" }));
    expect(o).toEqual({
      status: "rejected",
      result: { error: { code: "precondition_failed", message: "The payment is not pending.", precondition: "payment_pending" } },
      reason: "payment_pending: The payment is not pending.",
      changes: [],
    });
    // PAY-00002 (90,000 from ACC-001 with 100,000 and a floor of 20,000) breaches the floor.
    expect(e.invoke(agent("release_payment", { payment_id: "PAY-00002" })).reason).toBe("reserve_floor: The release would take the account below its reserve floor.");
    const ev = e.events[1];
    expect(ev?.kind).toBe("tool_call");
    expect(ev?.status).toBe("rejected");
    expect(ev?.state_hash).toBe(fixture().state.hash);
    expect(e.contentHash()).toBe(fixture().state.hash);
    e.close();
  });

  it("An approval for 5,000 does not cover an execution of 5,500; re-approval of the new terms does", () => {
    const e = openEpisode();
    const terms = { from_account: "ACC-001", to_account: "ACC-002" };
    const p1 = e.invoke(agent("propose_transfer", { ...terms, amount: 5000 }));
    expect(p1.proposal_id).toBe("PR-0001");
    expect(e.invoke(customer("approve_transfer", { proposal_id: "PR-0001" })).status).toBe("executed");
    const denied = e.invoke(agent("execute_transfer", { ...terms, amount: 5500 }));
    expect(denied.status).toBe("rejected");
    expect(denied.reason).toBe('approval_required: transfer {"amount":5500,"from_account":"ACC-001","to_account":"ACC-002"}');
    expect(denied.changes).toEqual([]);
    expect(e.invoke(agent("propose_transfer", { ...terms, amount: 5500 })).proposal_id).toBe("PR-0002");
    expect(e.invoke(customer("approve_transfer", { proposal_id: "PR-0002" })).status).toBe("executed");
    const done = e.invoke(agent("execute_transfer", { ...terms, amount: 5500 }));
    expect(done.status).toBe("executed");
    expect(done.proposal_id).toBe("PR-0002");
    expect(done.result).toEqual({ transfer_id: 6, amount: 5500 });
    // Effects, then the approval is used up, all in the call's one savepoint.
    expect(done.changes.map((c) => [c.table, c.key, c.after?.balance ?? c.after?.status])).toEqual([
      ["accounts", "ACC-001", 94500],
      ["accounts", "ACC-002", 55500],
      ["transfers", 6, undefined],
      ["_proposals", "PR-0002", "consumed"],
    ]);
    // The approval is used up: the same execution again needs a new approval.
    expect(e.invoke(agent("execute_transfer", { ...terms, amount: 5500 })).reason).toMatch(/^approval_required: /);
    // The 5,000 proposal is still approved and still covers exactly 5,000.
    expect(e.invoke(agent("execute_transfer", { ...terms, amount: 5000 })).proposal_id).toBe("PR-0001");
    expect(e.events.map((ev) => ev.kind)).toEqual(["proposal", "approval", "tool_call", "proposal", "approval", "tool_call", "tool_call", "tool_call"]);
    e.close();
  });

  it("refuses to approve twice or to approve an unknown proposal", () => {
    const e = openEpisode();
    e.invoke(agent("propose_transfer", { from_account: "ACC-001", to_account: "ACC-002", amount: 10 }));
    e.invoke(customer("approve_transfer", { proposal_id: "PR-0001" }));
    expect(e.invoke(customer("approve_transfer", { proposal_id: "PR-0001" })).reason).toBe("proposal_not_pending: PR-0001 is approved");
    expect(e.invoke(customer("approve_transfer", { proposal_id: "PR-0404" })).reason).toBe("proposal_not_found: PR-0404");
    e.close();
  });

  it("A trace made only of rejected calls leaves the state equal to the initial state", () => {
    const e = openEpisode();
    e.invoke(agent("release_payment", { payment_id: "PAY-00003" }));
    e.invoke(agent("execute_transfer", { from_account: "ACC-001", to_account: "ACC-002", amount: 1 }));
    e.invoke(agent("add_memo", { payment_id: "PAY-99999", memo: "x" }));
    const trace = e.finish();
    expect(trace.events.map((ev) => ev.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(trace.final_state_hash).toBe(trace.initial_state_hash);
    expect(e.contentHash()).toBe(fixture().state.hash);
    e.close();
  });

  it("stores quoted SQL in a normal tool's argument as plain data", () => {
    const e = openEpisode();
    const memo = "'; DROP TABLE payments; --";
    const o = e.invoke(agent("add_memo", { payment_id: "PAY-00001", memo }));
    expect(o.status).toBe("executed");
    expect(o.result).toEqual({ payment_id: "PAY-00001", memo });
    expect(e.read("SELECT memo FROM payments WHERE payment_id = ?", ["PAY-00001"])).toEqual([{ memo }]);
    expect(e.read("SELECT count(*) AS n FROM payments")).toEqual([{ n: 23 }]);
    e.close();
  });

  it("turns an exception inside a call into an errored outcome and rolls back earlier effects", () => {
    const e = openEpisode();
    const o = e.invoke(agent("adjust_account", { account_id: "ACC-001", balance: 1 }));
    expect(o).toEqual({
      status: "errored",
      result: { error: { code: "execution_error", message: "NOT NULL constraint failed: accounts.reserve_floor" } },
      reason: "NOT NULL constraint failed: accounts.reserve_floor",
      changes: [],
    });
    expect(e.read("SELECT balance FROM accounts WHERE account_id = 'ACC-001'")).toEqual([{ balance: 100000 }]);
    expect(e.invoke(agent("adjust_account", { account_id: "ACC-001", balance: 1, floor: 0 })).result).toEqual({ account_id: "ACC-001", balance: 1, reserve_floor: 0 });
    e.close();
  });

  it("binds :call and :now as integers and captures inserted rows", () => {
    const e = openEpisode();
    e.say("customer", "Please quote EURUSD.");
    const o = e.invoke(agent("request_fx_quote", { client_id: "CL-001", pair: "EURUSD" }));
    expect(o.result).toEqual({ quote_id: "Q-2", rate: 1.085, status: "open" });
    expect(o.changes).toEqual([
      { table: "fx_quotes", key: "Q-2", before: null, after: { quote_id: "Q-2", client_id: "CL-001", pair: "EURUSD", rate: 1.085, status: "open", issued_at: 0 } },
    ]);
    e.close();
  });

  it("wait advances the clock and fires due events in order, each recorded with its changes", () => {
    const e = openEpisode({ task: { id: "t1", scheduled_events: [{ id: "desk_open", description: "Desk opens.", at: 5, effects: [{ sql: "INSERT INTO desk_log (entry_id, event, at) VALUES (:call, 'desk_open', :now)" }] }] } });
    e.invoke(agent("request_fx_quote", { client_id: "CL-001", pair: "EURGBP" }));
    expect(e.wait(20)).toEqual({ status: "executed", result: { waited: 20, now: 20 }, changes: [] });
    e.wait(15);
    expect(e.read("SELECT status FROM fx_quotes WHERE quote_id = 'Q-1'")).toEqual([{ status: "expired" }]);
    e.invoke({ name: "wait", args: { minutes: 400 }, actor: "agent" });
    const trace = e.finish();
    expect(trace.events.map((ev) => [ev.index, ev.time, ev.kind, ev.name])).toEqual([
      [1, 0, "tool_call", "request_fx_quote"],
      [2, 0, "wait", "wait"],
      [3, 5, "scheduled_event", "desk_open"],
      [4, 20, "wait", "wait"],
      [5, 30, "scheduled_event", "quote_expiry"],
      [6, 35, "wait", "wait"],
      [7, 420, "scheduled_event", "cutoff_notice"],
      [8, 430, "scheduled_event", "end_of_day"],
    ]);
    expect(trace.events[4]?.changes).toEqual([
      {
        table: "fx_quotes",
        key: "Q-1",
        before: { quote_id: "Q-1", client_id: "CL-001", pair: "EURGBP", rate: 0.855, status: "open", issued_at: 0 },
        after: { quote_id: "Q-1", client_id: "CL-001", pair: "EURGBP", rate: 0.855, status: "expired", issued_at: 0 },
      },
    ]);
    expect(trace.events[7]?.changes[0]?.after).toEqual({ entry_id: 8, event: "end_of_day", at: 430 });
    expect(trace.clock_end).toBe(435);
    expect(trace.task).toBe("t1");
    e.close();
  });

  it("records a wait with bad minutes as an errored wait", () => {
    const e = openEpisode();
    const o = e.invoke({ name: "wait", args: { minutes: -1 }, actor: "agent" });
    expect(o.status).toBe("errored");
    expect(o.result).toEqual({ error: { code: "invalid_argument", field: "minutes", message: "minutes must be at least 0" } });
    expect(e.events[0]?.kind).toBe("wait");
    expect(e.now).toBe(0);
    e.close();
  });

  it("passes calls through a wrapper (the fault layer's seat) and records faults by mode", () => {
    const e = openEpisode({
      wrap: (inner) => (call) => {
        if (call.name === "get_payment") return { status: "faulted", result: { error: { code: "timeout", message: "timed out" } }, changes: [], fault: { mode: "explicit", type: "timeout", detail: "no answer", fault_event: 0 } };
        if (call.name === "add_memo") {
          const ran = inner(call);
          return { ...ran, status: "faulted", result: { payment_id: "PAY-00001" }, fault: { mode: "implicit", type: "dropped_field", detail: "dropped field memo", fault_event: 1 } };
        }
        return inner(call);
      },
    });
    e.invoke(agent("get_payment", { payment_id: "PAY-00001" }));
    e.invoke(agent("add_memo", { payment_id: "PAY-00001", memo: "checked" }));
    const [explicit, implicit] = e.events;
    expect([explicit?.kind, explicit?.status, explicit?.changes]).toEqual(["fault", "faulted", []]);
    expect([implicit?.kind, implicit?.status, implicit?.fault?.type, implicit?.changes.length]).toEqual(["tool_call", "faulted", "dropped_field", 1]);
    expect(e.read("SELECT memo FROM payments WHERE payment_id = 'PAY-00001'")).toEqual([{ memo: "checked" }]);
    e.close();
  });
});
