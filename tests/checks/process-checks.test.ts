import { describe, expect, it } from "vitest";
import { accountRow, change, ev, judge, type EventSpec } from "./fixtures/bank.js";

const transfer = (moves: Array<[string, number, number]>): EventSpec => ({
  name: "transfer_funds",
  changes: moves.map(([id, from, to]) => change("accounts", id, accountRow(id, "CL-001", from), accountRow(id, "CL-001", to))),
});

describe("invariant_holds", () => {
  const rule = { rule: "R-RESERVE-FLOOR" };

  it("a reserve that drops below its floor for one step and is restored by the next fails, naming that step", () => {
    const r = judge("invariant_holds", rule, [transfer([["ACC-2", 2000, 900], ["ACC-1", 5000, 6100]]), transfer([["ACC-2", 900, 1500], ["ACC-1", 6100, 5500]])]);
    expect([r.passed, r.reason, r.event]).toEqual([
      false,
      "accounts[ACC-2].balance = 900 < reserve_floor 1000 after event 1 (transfer_funds); restored at event 2 (transfer_funds) — a temporary breach fails",
      1,
    ]);
  });

  it("a breach never restored says so", () => {
    const r = judge("invariant_holds", rule, [ev.note(), transfer([["ACC-2", 2000, 900]])]);
    expect(r.reason).toBe("accounts[ACC-2].balance = 900 < reserve_floor 1000 after event 2 (transfer_funds); still breached at the end of the trace");
  });

  it("passes when every change keeps the floor, listing the events checked", () => {
    const r = judge("invariant_holds", rule, [transfer([["ACC-1", 5000, 3000]]), ev.note(), transfer([["ACC-2", 2000, 1000]])]);
    expect([r.passed, r.reason, r.event]).toEqual([true, 'accounts rows where kind = "operating" satisfied balance >= reserve_floor after every change (events 1, 3)', null]);
  });

  it("rows outside `where` (a savings account) are not judged; a rejected transfer changes nothing", () => {
    const savings: EventSpec = { name: "transfer_funds", changes: [change("accounts", "ACC-S", accountRow("ACC-S", "CL-001", 300, "savings"), accountRow("ACC-S", "CL-001", 100, "savings"))] };
    const rejected: EventSpec = { ...transfer([["ACC-2", 2000, 10]]), status: "rejected", reason: "insufficient_funds" };
    const r = judge("invariant_holds", rule, [savings, rejected]);
    expect([r.passed, r.reason]).toEqual([true, 'no change touched accounts rows where kind = "operating"; balance >= reserve_floor was never put at risk']);
  });

  it("takes an inline invariant, and rejects unknown rules and missing params with the check named", () => {
    const inline = judge("invariant_holds", { table: "payments", require: [{ column: "amount", op: "<=", value: 5000 }] }, [ev.release(5500)]);
    expect(inline.reason).toBe("payments[PAY-1].amount = 5500 > 5000 after event 1 (release_payment); still breached at the end of the trace");
    expect(judge("invariant_holds", { rule: "R-APPROVAL" }, [], "process", "p-inv").reason).toBe('check "p-inv" (invariant_holds): rule R-APPROVAL is not an invariant rule of the world model');
    expect(judge("invariant_holds", {}, [], "process", "p-inv").reason).toBe('check "p-inv" (invariant_holds): bad params — params: give `rule`, or `table` with at least one `require` predicate');
  });
});

describe("deadline_met", () => {
  const params = { operation: "release_payment", by_minute: 30 };
  const padded = (time: number) => [ev.note(), ev.note(), ev.note(), ev.note(), ev.note(), ev.note(), ev.release(5000, { time })];

  it("fails when the release happens after the deadline on the logical clock", () => {
    const r = judge("deadline_met", params, padded(45));
    expect([r.passed, r.reason, r.event]).toEqual([false, "event 7 (release_payment) executed at minute 45, after the deadline 30", 7]);
  });

  it("passes at the deadline minute itself", () => {
    expect(judge("deadline_met", params, padded(30)).reason).toBe("event 7 (release_payment) executed at minute 30, within the deadline 30");
  });

  it("never executing misses a required deadline and passes an optional one", () => {
    expect(judge("deadline_met", params, []).reason).toBe("release_payment was never executed; the deadline (minute 30) was missed");
    const optional = judge("deadline_met", { ...params, required: false }, []);
    expect([optional.passed, optional.reason]).toEqual([true, "release_payment was never executed; the deadline (minute 30) does not apply"]);
  });
});

describe("executed_in_order", () => {
  const params = { before: "get_payment", after: "release_payment" };
  const get: EventSpec = { name: "get_payment", args: { payment_id: "PAY-1" } };

  it("passes when the lookup precedes the release", () => {
    const r = judge("executed_in_order", params, [get, ev.release(5000)]);
    expect([r.passed, r.reason, r.event]).toEqual([true, "event 1 (get_payment) executed before event 2 (release_payment)", 2]);
  });

  it("fails on reordered steps, naming when the prerequisite ran", () => {
    const r = judge("executed_in_order", params, [ev.release(5000), get]);
    expect([r.passed, r.reason, r.event]).toEqual([false, "event 1 (release_payment) executed before any execution of get_payment (it first ran at event 2 (get_payment))", 1]);
  });

  it("a rejected prerequisite does not count", () => {
    expect(judge("executed_in_order", params, [{ ...get, status: "errored" }, ev.release(5000)]).reason).toBe("event 2 (release_payment) executed before any execution of get_payment (it never ran)");
  });
});

describe("fact_elicited_before_use", () => {
  const params = { fact: "F-INVOICE" };

  it("passes when the customer disclosed the invoice before the release used it", () => {
    const r = judge("fact_elicited_before_use", params, [ev.say(["F-INVOICE"]), ev.release(5000)]);
    expect([r.passed, r.reason, r.event]).toEqual([true, "fact F-INVOICE was disclosed at event 1 (message) before its first use at event 2 (release_payment)", 2]);
  });

  it("using the value before disclosure fails", () => {
    const r = judge("fact_elicited_before_use", params, [ev.release(5000), ev.say(["F-INVOICE"])]);
    expect([r.passed, r.reason, r.event]).toEqual([false, 'event 1 (release_payment) used invoice_ref = "INV-77" before the customer disclosed fact F-INVOICE (the customer only disclosed it at event 2 (message))', 1]);
  });

  it("never disclosed fails, used or not", () => {
    expect(judge("fact_elicited_before_use", params, [ev.say([]), ev.release(5000)]).reason).toBe(
      'event 2 (release_payment) used invoice_ref = "INV-77" before the customer disclosed fact F-INVOICE (the customer never disclosed it)',
    );
    const r = judge("fact_elicited_before_use", params, []);
    expect([r.passed, r.reason]).toEqual([false, 'fact F-INVOICE was never disclosed by the customer (and invoice_ref = "INV-77" was never used)']);
  });

  it("a fact that is unknown or names no parameter is a failed result naming the check", () => {
    expect(judge("fact_elicited_before_use", { fact: "F-X" }, [], "process", "p-fact").reason).toBe('check "p-fact" (fact_elicited_before_use): task t-release has no private fact "F-X"');
    expect(judge("fact_elicited_before_use", { fact: "F-NOPARAM" }, [], "process", "p-fact").reason).toBe(
      'check "p-fact" (fact_elicited_before_use): private fact F-NOPARAM names no `param`; give `param` in the check',
    );
  });
});

describe("execution_count", () => {
  const once = { operation: "release_payment", min: 1, max: 1 };

  it("catches executing twice, naming the extra execution", () => {
    const r = judge("execution_count", once, [ev.release(5000), ev.note(), ev.release(5000)]);
    expect([r.passed, r.reason, r.event]).toEqual([false, "release_payment executed 2 times (events 1, 3), expected exactly 1", 3]);
  });

  it("passes exactly once; fails never", () => {
    expect(judge("execution_count", once, [ev.release(5000), ev.release(5000, { status: "rejected" })]).reason).toBe("release_payment executed 1 time (event 1), expected exactly 1");
    const never = judge("execution_count", once, []);
    expect([never.passed, never.reason, never.event]).toEqual([false, "release_payment executed 0 times, expected exactly 1", null]);
  });

  it("validates its bounds", () => {
    expect(judge("execution_count", { operation: "release_payment", min: 2, max: 1 }, []).reason).toBe('check "c-1" (execution_count): bad params — params.max: `max` must not be below `min`');
    expect(judge("execution_count", { operation: "release_payment" }, []).reason).toBe(
      'check "c-1" (execution_count): bad params — params.min: give `max`, or `min` of at least 1 (otherwise the check cannot fail)',
    );
  });
});

describe("rule_version_followed", () => {
  const params = { operation: "charge_fee", arg: "fee", allowed: [25], forbidden: [15], version: "fee-schedule@2026" };
  const fee = (value: number): EventSpec => ({ name: "charge_fee", args: { payment_id: "PAY-1", fee: value } });

  it("fails on the outdated version's value", () => {
    const r = judge("rule_version_followed", params, [fee(15)]);
    expect([r.passed, r.reason, r.event]).toEqual([false, "event 1 (charge_fee) used fee = 15, a value of an outdated rule version (forbidden: [15])", 1]);
  });

  it("fails on a value the applicable version does not prescribe", () => {
    expect(judge("rule_version_followed", params, [fee(25), fee(20)]).reason).toBe("event 2 (charge_fee) used fee = 20, not the value of fee-schedule@2026 (allowed: [25])");
  });

  it("passes on the applicable value and when the operation never ran", () => {
    expect(judge("rule_version_followed", params, [fee(25)]).reason).toBe("every execution of charge_fee used fee in [25] of fee-schedule@2026 (event 1)");
    expect(judge("rule_version_followed", params, [{ ...fee(15), status: "rejected" }]).reason).toBe("charge_fee was never executed; no rule version was applied");
  });
});
