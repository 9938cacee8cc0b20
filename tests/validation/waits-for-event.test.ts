import { describe, expect, it } from "vitest";
import type { Task } from "../../pipeline/schemas/index.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { runMutants } from "../../validation/mutants/run-mutants.js";
import { judge, resultOf } from "../../validation/judge.js";
import { actionsOf, runActions } from "../../validation/episode-actions.js";
import { domain, fundedRelease, golden } from "./fixture.js";

// fund-and-release: screening of PAY-00004 clears at minute 20 (a task event); the plan waits 20
// minutes, then releases it.
function withRuleOnEvent(task: Task): Task {
  return { ...task, scheduled_events: task.scheduled_events.map((e) => ({ ...e, rule: "R-INVOICE" })) };
}

describe("information that arrives later: waits_for_event and act_before_information", () => {
  it("the rubric writer requires the write after a wait to come after the event that fired in it, with the event's rule", async () => {
    const task = await new DeterministicRubricWriter().writeChecks(domain(), withRuleOnEvent(fundedRelease()));
    const c = task.checks.process.find((x) => x.kind === "waits_for_event");
    expect(c).toMatchObject({ id: "process-release_payment-after-screening_cleared", params: { event: "screening_cleared", operation: "release_payment", args: { payment_id: "PAY-00004" } }, provenance: { source: "rule", rule: "R-INVOICE" } });
    expect(resultOf(judge(domain(), task, golden(task)), c!.id)).toMatchObject({ passed: true, reason: expect.stringMatching(/^screening_cleared fired at event \d+ \(minute 20\), before event \d+ \(release_payment\) at minute 20$/) });
    // The world refuses a release before screening clears: dropping the wait is not a violation.
    const run = runMutants(domain(), task, golden(task));
    expect(run.mutants.filter((m) => m.operator === "act_before_information")).toEqual([]);
    expect(run.notApplicable.find((n) => n.operator === "act_before_information")?.reason).toMatch(/^equivalent mutant: the world itself refused the violation \(dropped the 1 wait\(s\) before release_payment, so it runs before screening_cleared fired/);
  });

  it("acting before the event when the world allows it fails the check the mutant targets", () => {
    const base = withRuleOnEvent(fundedRelease());
    const plan = base.reference_plan.map((p) => (p.operation === "release_payment" ? { ...p, operation: "add_note", args: { payment_id: "PAY-00004", note: "Screening cleared; release prepared." } } : p));
    const check = { id: "p-after-screening", group: "process" as const, kind: "waits_for_event", params: { event: "screening_cleared", operation: "add_note", args: { payment_id: "PAY-00004" } }, description: "note after screening", provenance: base.checks.process[0]!.provenance };
    const task: Task = { ...base, reference_plan: plan, checks: { goal: [{ ...base.checks.goal[1]! }], process: [check], protection: [] } };
    const g = golden(task);
    expect(resultOf(judge(domain(), task, g), "p-after-screening")?.passed).toBe(true);
    const early = runMutants(domain(), task, g).mutants.filter((m) => m.operator === "act_before_information");
    expect(early).toEqual([
      expect.objectContaining({ target_check: "p-after-screening", killed: true, reason: expect.stringMatching(/^event \d+ \(add_note\) executed at minute 0, before screening_cleared had fired \(it never fired\)$/) }),
    ]);
    // The note written first and the wait after it: the event fires, but too late.
    const actions = actionsOf(g);
    const w = actions.findIndex((a) => a.type === "wait");
    const swapped = [...actions.slice(0, w), actions[w + 1]!, actions[w]!, ...actions.slice(w + 2)];
    const late = judge(domain(), task, runActions(domain(), task, swapped, { role: "violation" }));
    expect(resultOf(late, "p-after-screening")).toMatchObject({ passed: false, reason: expect.stringMatching(/^event \d+ \(add_note\) executed at minute 0, before screening_cleared had fired \(it fired at event \d+, minute 20\)$/) });
  });
});
