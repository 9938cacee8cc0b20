import { describe, expect, it } from "vitest";
import { change, ev, judge, paymentRow } from "./fixtures/bank.js";

const released = { table: "payments", key: "PAY-1", require: [{ column: "status", op: "=", value: "released" }] };
const fault = (mode: "explicit" | "implicit", type: "timeout" | "truncated_list") => ({ mode, type, detail: type, fault_event: 0 });

describe("final_row_state", () => {
  it("passes when the executed release leaves PAY-1 released, naming the deciding event", () => {
    const r = judge("final_row_state", released, [ev.propose(5000, "P-1"), ev.approve("P-1"), ev.release(5000)], "goal");
    expect(r).toEqual({
      check: "c-1",
      group: "goal",
      kind: "final_row_state",
      passed: true,
      reason: 'payments[PAY-1] satisfies status = "released" in the final state (last changed at event 3 (release_payment))',
      event: 3,
    });
  });

  it("a trace of only rejected, errored and explicitly faulted calls cannot pass, whatever their changes claim", () => {
    const r = judge(
      "final_row_state",
      released,
      [ev.release(5000, { status: "rejected", reason: "approval_required" }), ev.release(5000, { status: "errored" }), ev.release(5000, { status: "faulted", fault: fault("explicit", "timeout") })],
      "goal",
    );
    expect(r.passed).toBe(false);
    expect(r.reason).toBe('payments[PAY-1].status = "pending" != "released" in the final state (never changed from the initial state)');
    expect(r.event).toBeNull();
  });

  it("a do-nothing trace (no events) fails the goal", () => {
    const r = judge("final_row_state", released, [], "goal");
    expect([r.passed, r.reason]).toEqual([false, 'payments[PAY-1].status = "pending" != "released" in the final state (never changed from the initial state)']);
  });

  it("an implicitly faulted call ran, so its changes count", () => {
    const r = judge("final_row_state", released, [ev.release(5000, { status: "faulted", fault: fault("implicit", "truncated_list") })], "goal");
    expect([r.passed, r.event]).toEqual([true, 1]);
  });

  it("a row that never existed, and one deleted, fail naming why", () => {
    const absent = judge("final_row_state", { ...released, key: "PAY-404" }, [], "goal");
    expect(absent.reason).toBe("payments[PAY-404] does not exist in the final state (absent from the initial state and never inserted)");
    const deleted = judge("final_row_state", released, [{ name: "cancel_payment", changes: [change("payments", "PAY-1", paymentRow("PAY-1", "CL-001", 5000, "pending"), null)] }], "goal");
    expect([deleted.passed, deleted.reason, deleted.event]).toEqual([false, "payments[PAY-1] does not exist in the final state (deleted at event 1 (cancel_payment))", 1]);
  });
});

describe("terminal_value_in", () => {
  const params = { table: "payments", key: "PAY-1", column: "status", allowed: ["released", "cancelled"] };

  it("passes when the status ends in a permitted value", () => {
    const r = judge("terminal_value_in", params, [ev.release(5000)], "goal");
    expect([r.passed, r.reason, r.event]).toEqual([true, 'payments[PAY-1].status ends as "released", a permitted terminal value (last changed at event 1 (release_payment))', 1]);
  });

  it("fails when the episode stops in a non-terminal status", () => {
    const r = judge("terminal_value_in", params, [{ name: "approve_internally", changes: [change("payments", "PAY-1", paymentRow("PAY-1", "CL-001", 5000, "pending"), paymentRow("PAY-1", "CL-001", 5000, "approved"))] }], "goal");
    expect([r.passed, r.reason, r.event]).toEqual([false, 'payments[PAY-1].status ends as "approved", not one of ["released", "cancelled"] (last changed at event 1 (approve_internally))', 1]);
  });
});

describe("action_executed", () => {
  const params = { operation: "release_payment", args: { payment_id: "PAY-1" } };

  it("passes on an executed call with the arguments", () => {
    const r = judge("action_executed", params, [ev.propose(5000, "P-1"), ev.approve("P-1"), ev.release(5000)], "goal");
    expect([r.passed, r.reason, r.event]).toEqual([true, 'release_payment with payment_id = "PAY-1" executed at event 3 (release_payment)', 3]);
  });

  it("rejected and timed-out attempts do not count, and the reason lists them", () => {
    const r = judge(
      "action_executed",
      params,
      [ev.propose(5000, "P-1"), ev.release(5000, { status: "rejected", reason: "approval_required" }), ev.release(5000, { kind: "fault", status: "faulted", fault: fault("explicit", "timeout"), changes: [] })],
      "goal",
    );
    expect([r.passed, r.reason, r.event]).toEqual([false, 'release_payment with payment_id = "PAY-1" was never executed: event 2 rejected (approval_required); event 3 faulted (timeout)', null]);
  });

  it("a proposal recorded under the operation's name does not count", () => {
    const r = judge("action_executed", params, [{ name: "release_payment", kind: "proposal", args: { payment_id: "PAY-1", amount: 5000 }, proposal_id: "P-1" }], "goal");
    expect(r.reason).toBe('release_payment with payment_id = "PAY-1" was never executed: event 1 only proposed it');
  });

  it("an execution with other arguments or by another actor does not count", () => {
    const other = judge("action_executed", params, [ev.release(700, {}, "PAY-2")], "goal");
    expect(other.reason).toBe('release_payment with payment_id = "PAY-1" was never executed: event 1 (release_payment) executed it with other arguments (amount = 700, invoice_ref = "INV-77", payment_id = "PAY-2")');
    const byCustomer = judge("action_executed", { ...params, actor: "agent" }, [ev.release(5000, { actor: "customer" })], "goal");
    expect(byCustomer.reason).toBe('release_payment with payment_id = "PAY-1" was never executed: event 1 was made by the customer');
  });

  it("a do-nothing trace fails", () => {
    const r = judge("action_executed", params, [], "goal");
    expect([r.passed, r.reason]).toEqual([false, 'release_payment with payment_id = "PAY-1" was never executed (no call of it in the trace)']);
    expect(judge("action_executed", { operation: "release_payment" }, [], "goal").reason).toBe("release_payment was never executed (no call of it in the trace)");
  });
});
