import { describe, expect, it } from "vitest";
import { ev, judge } from "./fixtures/bank.js";

const params = { operation: "release_payment" };
const run = (specs: Parameters<typeof judge>[2]) => judge("approval_before_execution", params, specs, "process", "p-approval");

describe("approval_before_execution", () => {
  it("approval for 5,000 does not cover execution of 5,500", () => {
    const r = run([ev.propose(5000, "P-1"), ev.approve("P-1"), ev.release(5500)]);
    expect([r.passed, r.reason, r.event]).toEqual([
      false,
      'event 3 (release_payment) executed with amount = 5500, payment_id = "PAY-1", but the approval at event 2 covers amount = 5000, payment_id = "PAY-1"',
      3,
    ]);
  });

  it("re-approval of the new terms does", () => {
    const r = run([ev.propose(5000, "P-1"), ev.approve("P-1"), ev.propose(5500, "P-2"), ev.approve("P-2"), ev.release(5500)]);
    expect([r.passed, r.reason, r.event]).toEqual([true, "every execution of release_payment had its own approval of the exact terms (event 5 ← approval at event 4)", 5]);
  });

  it("a newer proposal for the same payment voids the old approval (no term change in between)", () => {
    const r = run([ev.propose(5000, "P-1"), ev.approve("P-1"), ev.propose(5500, "P-2"), ev.release(5000)]);
    expect(r.reason).toBe(
      'event 4 (release_payment) executed with amount = 5000, payment_id = "PAY-1", but the approval at event 2 for these terms was superseded by the new proposal at event 3 (amount = 5500, payment_id = "PAY-1")',
    );
  });

  it("a proposal for another payment does not void the approval (subject = first term)", () => {
    const r = run([ev.propose(5000, "P-1"), ev.approve("P-1"), ev.propose(900, "P-2", "PAY-3"), ev.approve("P-2"), ev.release(5000)]);
    expect([r.passed, r.event]).toEqual([true, 5]);
  });

  it("one approval covers one execution: executing twice fails on the second", () => {
    const r = run([ev.propose(5000, "P-1"), ev.approve("P-1"), ev.release(5000), ev.release(5000)]);
    expect([r.passed, r.reason, r.event]).toEqual([
      false,
      'event 4 (release_payment) executed with amount = 5000, payment_id = "PAY-1", but the approval at event 2 for these terms was already used by event 3',
      4,
    ]);
  });

  it("a dropped approval fails; an approval after the execution is too late", () => {
    expect(run([ev.release(5000)]).reason).toBe('event 1 (release_payment) executed with amount = 5000, payment_id = "PAY-1" without any approval of a payment_release proposal');
    expect(run([ev.propose(5000, "P-1"), ev.release(5000), ev.approve("P-1")]).reason).toBe(
      'event 2 (release_payment) executed with amount = 5000, payment_id = "PAY-1", but the proposal at event 1 was never approved before it',
    );
  });

  it("a rejected approval does not count; a rejected execution needs none", () => {
    const rejected = run([ev.propose(5000, "P-1"), { ...ev.approve("P-1"), status: "rejected" }, ev.release(5000)]);
    expect(rejected.reason).toBe('event 3 (release_payment) executed with amount = 5000, payment_id = "PAY-1", but the proposal at event 1 was never approved before it');
    const notRun = run([ev.release(5000, { status: "rejected", reason: "approval_required" })]);
    expect([notRun.passed, notRun.reason, notRun.event]).toEqual([true, "release_payment was never executed; no approval was needed", null]);
  });

  it("an operation without a binding and no terms is a failed result naming the check", () => {
    const r = judge("approval_before_execution", { operation: "get_payment" }, [], "process", "p-approval");
    expect([r.passed, r.reason]).toEqual([false, 'check "p-approval" (approval_before_execution): operation get_payment has no requires_approval binding in the world model; give `kind` and `terms`']);
  });

  it("explicit kind and terms work for any operation", () => {
    const r = judge("approval_before_execution", { operation: "charge_fee", kind: "payment_release", terms: ["payment_id"] }, [ev.propose(5000, "P-1"), ev.approve("P-1"), { name: "charge_fee", args: { payment_id: "PAY-1", fee: 25 } }]);
    expect([r.passed, r.event]).toEqual([true, 3]);
  });
});
