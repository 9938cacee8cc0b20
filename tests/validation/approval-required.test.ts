import { describe, expect, it } from "vitest";
import { runCheck } from "../../validation/checks/index.js";
import { createCheckContext } from "../../pipeline/world/check-context.js";
import { initialStateFor } from "../../validation/initial-states.js";
import { runActions } from "../../validation/episode-actions.js";
import { approvedRelease, domain, golden, plantedCheck } from "./fixture.js";

describe("approval_before_execution `required`", () => {
  const task = approvedRelease();
  const noRelease = runActions(domain(), task, [{ type: "open" }, { type: "call", name: "release_approved_payment", args: { payment_id: "PAY-00002", amount: 25000, fee: 15 } }]);
  const judge = (required: boolean | undefined, trace = noRelease) => {
    const ctx = createCheckContext(domain().world, task, initialStateFor(domain(), task));
    try {
      const params = required === undefined ? { operation: "release_approved_payment" } : { operation: "release_approved_payment", required };
      return runCheck(plantedCheck("p", "process", "approval_before_execution", params), "process", trace, ctx);
    } finally {
      ctx.close();
    }
  };

  it("by default an operation that never ran needs no approval (compatible with existing tasks)", () => {
    expect(judge(undefined)).toMatchObject({ passed: true, reason: "release_approved_payment was never executed; no approval was needed" });
  });

  it("with required: true a trace that never ran it fails, naming the refused attempts", () => {
    expect(judge(true)).toMatchObject({ passed: false, event: null, reason: "release_approved_payment was never executed, but an approved execution is required; attempts at event 2 (rejected) did not run" });
  });

  it("with required: true an approved execution still passes", () => {
    expect(judge(true, golden(task))).toMatchObject({ passed: true, event: 11 });
  });
});
