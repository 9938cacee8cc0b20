import { describe, expect, it } from "vitest";
import { planFaults, withFaults, type FaultPlan, type PlannedFault } from "../../pipeline/world/faults.js";
import type { ToolCall } from "../../pipeline/world/types.js";
import { stubWorld } from "./stub-world.js";

const agent = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ name, args, actor: "agent" });
const customer = (name: string): ToolCall => ({ name, args: {}, actor: "customer" });

function handPlan(faults: PlannedFault[]): FaultPlan {
  return { condition: faults.some((f) => f.mode === "explicit") ? "E1" : "E2", seed: 11, events: 1, calls_per_event: faults.length, horizon: 10, faults };
}
const at = (call: number, type: PlannedFault["type"], mode: PlannedFault["mode"] = "implicit"): PlannedFault => ({ call, fault_event: 0, mode, type });

const script: ToolCall[] = [
  agent("list_payments"),
  agent("get_payment", { payment_id: "PAY-1" }),
  customer("approve"),
  agent("release_payment", { payment_id: "PAY-1" }),
  agent("get_payment", { payment_id: "PAY-1" }),
  agent("search_payments"),
  agent("release_payment", { payment_id: "PAY-2" }),
  agent("get_payment", { payment_id: "PAY-9" }),
  agent("list_payments"),
  agent("get_payment", { payment_id: "PAY-2" }),
  agent("release_payment", { payment_id: "PAY-3" }),
  agent("note"),
  agent("list_payments"),
];

function runScript(plan: FaultPlan) {
  const world = stubWorld();
  const invoke = withFaults(world.invoke, plan);
  return { outcomes: script.map((c) => invoke(c)), world };
}

describe("withFaults", () => {
  it("same seed twice gives deep-equal outcomes", () => {
    const plan = planFaults({ condition: "E3", seed: 2024, events: 4, callsPerEvent: 2, totalCallsHint: 12 });
    const a = runScript(plan).outcomes;
    const b = runScript(planFaults({ condition: "E3", seed: 2024, events: 4, callsPerEvent: 2, totalCallsHint: 12 })).outcomes;
    expect(b).toEqual(a);
    // The plan for this seed: implicit dropped_field at agent calls 0-1 and 4-5, explicit http_500 at 7-8, connection_refused at 9-10.
    expect(a.map((o) => o.fault?.type ?? null)).toEqual([
      "dropped_field", "dropped_field", null, null, null, "dropped_field", "dropped_field", null, "http_500", "http_500", "connection_refused", "connection_refused", null,
    ]);
  });

  it("E0 is the identity: the same function, the same outcomes", () => {
    const world = stubWorld();
    const plan = planFaults({ condition: "E0", seed: 1 });
    expect(withFaults(world.invoke, plan)).toBe(world.invoke);
    const clean = stubWorld();
    expect(runScript(plan).outcomes).toEqual(script.map((c) => clean.invoke(c)));
  });

  it("an E2 truncation returns fewer rows than the state holds, marked faulted with its record", () => {
    const { state, invoke } = stubWorld();
    const out = withFaults(invoke, handPlan([at(0, "truncated_list")]))(agent("list_payments"));
    expect(state.size).toBe(5);
    expect(out.status).toBe("faulted");
    expect((out.result as unknown[]).map((r) => (r as { payment_id: string }).payment_id)).toEqual(["PAY-1", "PAY-2", "PAY-3"]);
    expect(out.fault).toEqual({ mode: "implicit", type: "truncated_list", detail: "kept 3 of 5 rows", fault_event: 0 });
  });

  it("truncates a list nested in an object result, leaving its other fields", () => {
    const { invoke } = stubWorld();
    const out = withFaults(invoke, handPlan([at(0, "truncated_list")]))(agent("search_payments"));
    const result = out.result as { total: number; rows: unknown[] };
    expect([result.total, result.rows.length, out.fault?.detail]).toEqual([5, 3, "kept 3 of 5 rows"]);
  });

  it("E1 on a write call leaves the state unchanged and the changes empty", () => {
    const { state, invoke, calls } = stubWorld();
    const out = withFaults(invoke, handPlan([at(0, "http_500", "explicit")]))(agent("release_payment", { payment_id: "PAY-1" }));
    expect(out).toEqual({
      status: "faulted",
      result: { error: { code: "HTTP_500", message: "Internal server error (HTTP 500)." } },
      reason: "http_500: Internal server error (HTTP 500).",
      changes: [],
      fault: { mode: "explicit", type: "http_500", detail: "agent call 0 (release_payment) did not run: http_500", fault_event: 0 },
    });
    expect(state.get("PAY-1")?.status).toBe("pending");
    expect(calls).toEqual([]);
  });

  it("an implicit fault on a write keeps its changes; a single row cannot be truncated, so a field is dropped instead", () => {
    const { state, invoke } = stubWorld();
    const out = withFaults(invoke, handPlan([at(0, "truncated_list")]))(agent("release_payment", { payment_id: "PAY-1" }));
    expect(state.get("PAY-1")?.status).toBe("released");
    expect(out.changes).toHaveLength(1);
    expect(out.result).toEqual({ payment_id: "PAY-1" });
    expect(out.fault).toEqual({ mode: "implicit", type: "dropped_field", detail: "truncated_list could not apply; dropped_field: dropped field status from 1 row", fault_event: 0 });
  });

  it("emptied_value blanks a non-key field of every row ('' for text, null otherwise)", () => {
    const { invoke } = stubWorld();
    const out = withFaults(invoke, handPlan([at(0, "emptied_value")]))(agent("list_payments"));
    const rows = out.result as Array<Record<string, unknown>>;
    const field = out.fault?.detail.match(/^emptied field (\w+) in 5 rows/)?.[1];
    expect(["amount", "status"]).toContain(field);
    expect(rows.every((r) => r[field as string] === (field === "status" ? "" : null))).toBe(true);
    expect(rows.map((r) => r.payment_id)).toEqual(["PAY-1", "PAY-2", "PAY-3", "PAY-4", "PAY-5"]);
  });

  it("stale_value returns what the identical call returned earlier", () => {
    const { invoke } = stubWorld();
    const faulty = withFaults(invoke, handPlan([at(2, "stale_value")]));
    faulty(agent("get_payment", { payment_id: "PAY-1" }));
    faulty(agent("release_payment", { payment_id: "PAY-1" }));
    const out = faulty(agent("get_payment", { payment_id: "PAY-1" }));
    expect(out.result).toEqual({ payment_id: "PAY-1", amount: 1000, status: "pending" });
    expect(out.fault).toEqual({ mode: "implicit", type: "stale_value", detail: "returned the result of the identical agent call 0", fault_event: 0 });
  });

  it("stale_value without an earlier identical call shows the row's earlier value", () => {
    const { state, invoke } = stubWorld();
    const out = withFaults(invoke, handPlan([at(0, "stale_value")]))(agent("release_payment", { payment_id: "PAY-1" }));
    expect(out.result).toEqual({ payment_id: "PAY-1", status: "pending" });
    expect(out.fault?.detail).toBe('showed the earlier value of payments[PAY-1].status: "pending" instead of "released"');
    expect(state.get("PAY-1")?.status).toBe("released");
  });

  it("a rejected call or a null result cannot be degraded: the fault is spent, the outcome untouched", () => {
    const { invoke } = stubWorld();
    const faulty = withFaults(invoke, handPlan([at(0, "dropped_field"), at(1, "stale_value")]));
    expect(faulty(agent("get_payment", { payment_id: "PAY-9" }))).toEqual(stubWorld().invoke(agent("get_payment", { payment_id: "PAY-9" })));
    expect(faulty(agent("note"))).toEqual({ status: "executed", result: null, changes: [] });
  });

  it("only agent calls are counted and faulted; customer actions pass through", () => {
    const { invoke } = stubWorld();
    const faulty = withFaults(invoke, handPlan([at(0, "timeout", "explicit")]));
    expect(faulty(customer("approve"))).toEqual({ status: "executed", result: { approved: true }, changes: [] });
    expect(faulty(agent("list_payments")).fault?.type).toBe("timeout");
    expect(faulty(agent("list_payments")).status).toBe("executed");
  });

  it("an E1 plan over the script faults exactly the planned agent calls and runs no write it faulted", () => {
    const plan = planFaults({ condition: "E1", seed: 8, events: 2, callsPerEvent: 2, totalCallsHint: 12 });
    const { outcomes, world } = runScript(plan);
    const agentOutcomes = outcomes.filter((_, i) => script[i]?.actor === "agent");
    expect(agentOutcomes.map((o, i) => (o.status === "faulted" ? i : -1)).filter((i) => i >= 0)).toEqual(plan.faults.map((f) => f.call));
    expect(world.calls.length).toBe(script.length - plan.faults.length);
  });
});
