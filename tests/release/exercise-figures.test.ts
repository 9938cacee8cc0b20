import { describe, expect, it } from "vitest";
import { exerciseFigures, hasVersionTrap, isTimed } from "../../pipeline/release/exercise-figures.js";
import { taskFacts } from "../../pipeline/release/collect-domain.js";
import { approvedRelease, smallRelease } from "../validation/fixture.js";
import type { Task, ValidationReport } from "../../pipeline/schemas/index.js";

const entry = (task: string, probes: Record<string, boolean>): ValidationReport["tasks"][number] => ({ task, status: "released", gates: [], mutants: [], kill_rate: null, repairs: [], probes, difficulty: "hard", drop_reason: null });

describe("what the released tasks exercise (datasheet figures)", () => {
  const noTrap: Task = { ...smallRelease(), id: "plain", checks: { goal: smallRelease().checks.goal, process: [], protection: [] }, reference_plan: smallRelease().reference_plan.filter((p) => p.operation !== "wait") };
  // The approved task's customer corrects the amount right after approving it (a renewed approval).
  const renewed: Task = { ...approvedRelease(), scenario: { ...approvedRelease().scenario, renewals: [{ kind: "payment_release", param: "amount", value: 26000, statement: "One correction to what I just approved, please: the amount must be 26000.00, not 25000.00." }] } };
  const tasks = [smallRelease(), renewed, noTrap];
  const report: ValidationReport = {
    domain: "mini-payments",
    tasks: [entry("release-small", { "newest-version": false, "first-found": false }), entry("release-approved", { "newest-version": true, "first-found": true }), entry("plain", { "newest-version": true, "first-found": true })],
    summary: { generated: 3, released: 3, dropped: 0, repaired: 0, mutants_total: 0, mutants_killed: 0, kill_rate: null, kill_rate_by_operator: {}, survivors: [] },
    branches: [
      { workflow: "payment-release", decision: "d1", when: "the amount is above EUR 10,000.00", tasks: ["release-approved"], reason: null },
      { workflow: "payment-release", decision: "d1", when: "otherwise (not: the amount is above EUR 10,000.00)", tasks: [], reason: "the condition was evaluated and did not hold on any released task's state" },
    ],
    // Two tasks check the reserve floor; a violation trace breached it only on one.
    invariants: [{ rule: "R-FLOOR", table: "accounts", checked: ["release-approved", "release-small"], tested: ["release-small"], reason: null }],
  };

  it("counts traps (and those a wrong-version probe fails), time, invariants, branches and the version probes' solves exactly", () => {
    expect(tasks.map(hasVersionTrap)).toEqual([true, true, false]);
    expect(tasks.map(isTimed)).toEqual([true, true, false]);
    expect(exerciseFigures(tasks.map((t) => taskFacts(t, null)), report)).toEqual({ branches: { taken: 1, total: 2 }, traps: 2, trapsBite: 1, timed: 2, invariants: 1, invariantsChecked: 2, approvals: 1, renewals: 1, newestSolves: 2, firstFoundSolves: 2, tasks: 3 });
  });
});
