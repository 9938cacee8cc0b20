import { describe, expect, it } from "vitest";
import { FoundryError } from "../../pipeline/core/errors.js";
import { goldenReplayGate } from "../../validation/gates/golden-replay.js";
import { scenarioConsistencyGate } from "../../validation/gates/scenario-consistency.js";
import { alternativesGate } from "../../validation/gates/alternatives.js";
import { alternativeExecutions } from "../../validation/alternatives.js";
import { parseTrace } from "../../validation/parse-trace.js";
import { actionsOf, runActions } from "../../validation/episode-actions.js";
import { judge } from "../../validation/judge.js";
import { defaultRepairer } from "../../validation/repairs/default-repairer.js";
import type { Task } from "../../pipeline/schemas/index.js";
import { allTasks, approvedRelease, domain, fundedRelease, golden, plantedCheck, smallRelease, withChecks } from "./fixture.js";

describe("gate 1: golden replay", () => {
  it("every fixture golden trace replays event by event and passes every check", () => {
    const details = allTasks().map((t) => goldenReplayGate(domain(), t, golden(t)));
    expect(details.map((g) => [g.passed, g.detail])).toEqual([
      [true, "replayed 8 events identically; all 10 checks pass"],
      [true, "replayed 11 events identically; all 9 checks pass"],
      [true, "replayed 14 events identically; all 11 checks pass"],
      [true, "replayed 3 events identically; all 4 checks pass"],
    ]);
  });

  it("a recorded result the world does not reproduce is a replay mismatch at that event", () => {
    const g = golden(smallRelease());
    const tampered = { ...g, events: g.events.map((e) => (e.index === 8 ? { ...e, result: { payment_id: "PAY-00001", status: "released", fee: 25, released_at: 0 } } : e)) };
    const gate = goldenReplayGate(domain(), smallRelease(), tampered);
    expect(gate.passed).toBe(false);
    expect(gate.diagnosis).toMatchObject({ gate: "golden_replay", code: "replay_mismatch", event: 8, check: null });
    expect(gate.detail).toMatch(/^replay differs at event 8, field result: recorded/);
  });

  it("a golden trace that does not parse is a named error, not a pass", () => {
    const g = golden(smallRelease());
    const broken = { ...g, events: g.events.map((e) => (e.index === 3 ? { ...e, status: "ok" } : e)) };
    const gate = goldenReplayGate(domain(), smallRelease(), broken);
    expect(gate.passed).toBe(false);
    expect(gate.diagnosis?.code).toBe("golden_invalid");
    expect(gate.detail).toMatch(/^TRACE_INVALID: golden trace does not parse: events\[2\]\.status: /);
    expect(() => parseTrace({ task: "x" })).toThrow(FoundryError);
  });

  it("a do-nothing trace (the opening message only) fails every fixture task on its goal", () => {
    for (const t of allTasks()) {
      const j = judge(domain(), t, runActions(domain(), t, [{ type: "open" }]));
      expect(j.success.strict).toBe(false);
      expect(j.failed).toEqual(expect.arrayContaining(t.checks.goal.map((c) => c.id)));
    }
  });
});

describe("gate 5: scenario consistency", () => {
  it("passes when facts agree with the state, hidden columns included", () => {
    const gate = scenarioConsistencyGate(domain(), fundedRelease(), golden(fundedRelease()));
    expect(gate.detail).toBe("2 private facts; 1 compared with the initial state and all agree; every fact value used was disclosed first");
  });

  it("catches a fact whose value contradicts the hidden column of the row its call touches", () => {
    const task = smallRelease();
    const wrong: Task = { ...task, scenario: { ...task.scenario, private_facts: [{ ...task.scenario.private_facts[0]!, value: "INV-2026-9999", statement: "The invoice reference is INV-2026-9999." }] } };
    const gate = scenarioConsistencyGate(domain(), wrong, golden(task));
    expect(gate.diagnosis).toMatchObject({ code: "fact_inconsistent", fact: "invoice_ref" });
    expect(gate.detail).toBe('private fact invoice_ref says invoice_ref = "INV-2026-9999", but the initial state holds payments[PAY-00001].invoice_ref = "INV-2026-0101"');
  });

  it("catches a fact value used before the customer disclosed it", () => {
    const task = smallRelease();
    const actions = actionsOf(golden(task));
    const ask = actions.findIndex((a) => a.type === "ask");
    const reordered = [...actions.slice(0, ask), ...actions.slice(ask + 1), actions[ask]!];
    const gate = scenarioConsistencyGate(domain(), task, runActions(domain(), task, reordered));
    expect(gate.diagnosis).toMatchObject({ code: "fact_undisclosed", fact: "invoice_ref", event: 4 });
  });

  it("a fact nothing uses that contradicts the state is dropped by the default repairer", () => {
    const task = smallRelease();
    const noisy: Task = { ...task, scenario: { ...task.scenario, private_facts: [...task.scenario.private_facts, { id: "note_hint", statement: "Mark it urgent.", value: "urgent", param: "note", disclose_when: ["note"] }] } };
    const gate = scenarioConsistencyGate(domain(), noisy, golden(task));
    expect(gate.diagnosis).toMatchObject({ code: "fact_inconsistent", fact: "note_hint" });
    const fixed = defaultRepairer(noisy, gate.diagnosis!, 1, { ctx: domain(), golden: golden(task) });
    expect(fixed && "action" in fixed ? fixed.action : null).toBe("dropped private fact note_hint, which no check, plan step or call uses");
  });
});

describe("gate 2: alternative executions", () => {
  it("swaps adjacent steps the SOP lets run in any order, and never a step before what it needs", () => {
    expect(alternativeExecutions(domain(), smallRelease(), golden(smallRelease())).map((a) => a.label)).toEqual(["swap payment-release:s1<->s2", "swap payment-release:s2<->s3"]);
    expect(alternativeExecutions(domain(), fundedRelease(), golden(fundedRelease())).map((a) => a.label)).toEqual(["swap payment-release:s1<->s2", "swap payment-release:s2<->s3"]);
  });

  it("every generated alternative passes every check", () => {
    for (const t of [smallRelease(), approvedRelease(), fundedRelease()]) {
      const gate = alternativesGate(domain(), t, golden(t));
      expect([gate.passed, gate.generated, gate.passedCount]).toEqual([true, 2, 2]);
    }
  });

  it("a check that a valid alternative fails is over-specified: named, then removed by the default repairer", () => {
    const strict = withChecks(smallRelease(), "process", plantedCheck("p-client-first", "process", "executed_in_order", { before: "get_client", after: "get_payment" }));
    // The golden order (get_payment first) already fails this check: plant the reverse order instead.
    const planted = withChecks(smallRelease(), "process", plantedCheck("p-payment-first", "process", "executed_in_order", { before: "get_payment", after: "get_client" }));
    expect(judge(domain(), strict, golden(strict)).failed).toEqual(["p-client-first"]);
    const gate = alternativesGate(domain(), planted, golden(planted));
    expect(gate.diagnosis).toMatchObject({ gate: "alternatives", code: "alternative_failed", check: "p-payment-first" });
    expect(gate.detail).toMatch(/^valid alternative "swap payment-release:s1<->s2" fails check p-payment-first: /);
    const fixed = defaultRepairer(planted, gate.diagnosis!, 1, { ctx: domain(), golden: golden(planted) });
    expect(fixed && "task" in fixed ? fixed.task.checks.process.map((c) => c.id) : null).toEqual(smallRelease().checks.process.map((c) => c.id));
  });
});
