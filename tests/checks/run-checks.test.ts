import { describe, expect, it } from "vitest";
import { FoundryError } from "../../pipeline/core/errors.js";
import type { CheckResult } from "../../pipeline/schemas/index.js";
import { CHECK_KIND_NAMES, runChecks, strictSuccess } from "../../validation/checks/index.js";
import { accountRow, change, check, ctx, ev, judge, makeTask, trace } from "./fixtures/bank.js";

const task = makeTask({
  goal: [check("g-released", "goal", "final_row_state", { table: "payments", key: "PAY-1", require: [{ column: "status", op: "=", value: "released" }] })],
  process: [
    check("p-approval", "process", "approval_before_execution", { operation: "release_payment" }),
    check("p-invoice", "process", "fact_elicited_before_use", { fact: "F-INVOICE" }),
    check("p-floor", "process", "invariant_holds", { rule: "R-RESERVE-FLOOR" }),
  ],
  protection: [check("x-others", "protection", "other_customers_untouched", {})],
});

const golden = [ev.say(["F-INVOICE"]), ev.propose(5000, "P-1"), ev.approve("P-1"), ev.release(5000)];

describe("runChecks", () => {
  it("judges a golden trace strictly successful, in goal → process → protection order", () => {
    const results = runChecks(task, trace(golden), ctx);
    expect(results.map((r) => [r.check, r.group, r.passed])).toEqual([
      ["g-released", "goal", true],
      ["p-approval", "process", true],
      ["p-invoice", "process", true],
      ["p-floor", "process", true],
      ["x-others", "protection", true],
    ]);
    expect(strictSuccess(results)).toEqual({ goal: true, process: true, protection: true, strict: true });
  });

  it("a dropped approval fails only the approval check, so strict success fails on process", () => {
    const results = runChecks(task, trace([ev.say(["F-INVOICE"]), ev.release(5000)]), ctx);
    expect(results.filter((r) => !r.passed).map((r) => [r.check, r.reason, r.event])).toEqual([
      ["p-approval", 'event 2 (release_payment) executed with amount = 5000, payment_id = "PAY-1" without any approval of a payment_release proposal', 2],
    ]);
    expect(strictSuccess(results)).toEqual({ goal: true, process: false, protection: true, strict: false });
  });

  it("a trace of another task is refused with a FoundryError", () => {
    const other = { ...trace(golden), task: "t-other" };
    let caught: unknown;
    try {
      runChecks(task, other, ctx);
    } catch (e) {
      caught = e;
    }
    expect(FoundryError.is(caught) && caught.code).toBe("TRACE_TASK_MISMATCH");
  });
});

describe("runCheck never crashes", () => {
  it("an unknown kind is a failed result naming the check and listing the registered kinds", () => {
    const r = judge("final_state", {}, [], "goal", "g-typo");
    expect(r).toEqual({ check: "g-typo", group: "goal", kind: "final_state", passed: false, reason: `check "g-typo": unknown check kind "final_state"; registered kinds: ${CHECK_KIND_NAMES.join(", ")}`, event: null });
  });

  it("bad params are a failed result naming the check and the field", () => {
    const r = judge("final_row_state", { key: "PAY-1", require: [], colour: "red" }, [], "goal", "g-bad");
    expect(r.reason).toBe(
      'check "g-bad" (final_row_state): bad params — params.table: Invalid input: expected string, received undefined; params.require: Too small: expected array to have >=1 items; params: Unrecognized key: "colour"',
    );
  });

  it("a check filed under another group than it declares fails", () => {
    const t = makeTask({ goal: [check("g-1", "goal", "execution_count", { operation: "release_payment", min: 1 })], process: [check("p-1", "goal", "execution_count", { operation: "release_payment", max: 1 })] });
    const results = runChecks(t, trace([ev.release(5000)]), ctx);
    expect(results.map((r) => [r.check, r.group, r.passed, r.reason])).toEqual([
      ["g-1", "goal", true, "release_payment executed 1 time (event 1), expected at least 1"],
      ["p-1", "process", false, 'check "p-1" is listed under process but declares group goal'],
    ]);
  });

  it("the same kind can serve another group (execution_count with max 0 as a protection check)", () => {
    const r = judge("execution_count", { operation: "close_account", max: 0 }, [{ name: "close_account", changes: [change("accounts", "ACC-1", accountRow("ACC-1", "CL-001", 5000), null)] }], "protection");
    expect([r.group, r.passed, r.reason, r.event]).toEqual(["protection", false, "close_account executed 1 time (event 1), expected exactly 0", 1]);
  });
});

describe("strictSuccess", () => {
  const result = (group: CheckResult["group"], passed: boolean): CheckResult => ({ check: `${group}-${passed}`, group, kind: "k", passed, reason: "r", event: null });

  it("empty process and protection groups pass; an empty goal group fails", () => {
    expect(strictSuccess([result("goal", true)])).toEqual({ goal: true, process: true, protection: true, strict: true });
    expect(strictSuccess([])).toEqual({ goal: false, process: true, protection: true, strict: false });
    expect(strictSuccess([result("process", true), result("protection", true)])).toEqual({ goal: false, process: true, protection: true, strict: false });
  });

  it("any failure in a group fails that group and strict success", () => {
    expect(strictSuccess([result("goal", true), result("goal", false), result("protection", true)])).toEqual({ goal: false, process: true, protection: true, strict: false });
    expect(strictSuccess([result("goal", true), result("protection", false)])).toEqual({ goal: true, process: true, protection: false, strict: false });
  });
});
