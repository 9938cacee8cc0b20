import { describe, expect, it } from "vitest";
import type { Task, TaskValidation } from "../../pipeline/schemas/index.js";
import { invariantCoverage } from "../../validation/invariant-coverage.js";
import { runMutants } from "../../validation/mutants/run-mutants.js";
import { approvedRelease, domain, golden, smallRelease } from "./fixture.js";

/** A task's validation entry from a real mutation run. */
function entry(task: Task, breachKilled: boolean | null): TaskValidation {
  const run = runMutants(domain(), task, golden(task));
  const mutants = run.mutants.map((m) => ({ operator: m.operator, target_check: m.target_check, killed: m.operator === "breach_constraint_then_restore" && breachKilled === false ? false : m.killed, failed_checks: m.failed_checks }));
  const not_applicable = breachKilled === null ? [{ operator: "breach_constraint_then_restore", reason: "check p-floor: none of 4 calls of move_funds on the customer's rows breaks it" }] : run.notApplicable;
  return { task: task.id, status: "released", gates: [], mutants: breachKilled === null ? mutants.filter((m) => m.operator !== "breach_constraint_then_restore") : mutants, not_applicable, kill_rate: null, repairs: [], probes: {}, difficulty: null, drop_reason: null };
}

describe("invariant coverage: which released tasks test each invariant", () => {
  const world = domain().world;

  it("a task tests an invariant only when a breach-then-restore trace was caught by its check", () => {
    const small = smallRelease();
    const approved = { ...approvedRelease() };
    const cov = invariantCoverage(world, [small, approved], [entry(small, true), entry(approved, null)]);
    expect(cov).toEqual([{ rule: "R-FLOOR", table: "accounts", checked: ["release-approved", "release-small"], tested: ["release-small"], reason: null }]);
  });

  it("an invariant no released task tests says why", () => {
    const approved = approvedRelease();
    expect(invariantCoverage(world, [approved], [entry(approved, null)])).toEqual([
      { rule: "R-FLOOR", table: "accounts", checked: ["release-approved"], tested: [], reason: "no violation trace could breach it and restore it: release-approved: check p-floor: none of 4 calls of move_funds on the customer's rows breaks it" },
    ]);
    const plain: Task = { ...approved, id: "plain", checks: { ...approved.checks, process: [] } };
    expect(invariantCoverage(world, [plain], [entry(plain, null)])[0]?.reason).toBe("no released task changes accounts, so none checks it");
    const small = smallRelease();
    expect(invariantCoverage(world, [small], [entry(small, false)])[0]?.reason).toBe("its breach-then-restore violation traces were not killed on its check");
  });
});
