import { describe, expect, it } from "vitest";
import type { Task } from "../../pipeline/schemas/index.js";
import { verifyTask } from "../../validation/validate-task.js";
import { formatDiagnosis } from "../../validation/gates/types.js";
import { chainRepairers, defaultRepairer } from "../../validation/repairs/default-repairer.js";
import type { RepairFn, Repaired } from "../../validation/repairs/types.js";
import { runActions } from "../../validation/episode-actions.js";
import { actionsFromPlan } from "../../validation/plan-actions.js";
import { domain, golden, plantedCheck, smallRelease, withChecks } from "./fixture.js";

/** One repair round as the graph's repair node runs it with the deterministic repairer. */
async function repairOnce(task: Task, goldenTrace: unknown, repair: RepairFn = defaultRepairer): Promise<{ diagnosis: string; fixed: Repaired | null }> {
  const v = verifyTask(domain(), task, goldenTrace);
  if (!v.diagnosis) throw new Error(`${task.id} passed verification`);
  const fixed = await repair(task, v.diagnosis, 1, { ctx: domain(), golden: null });
  return { diagnosis: formatDiagnosis(v.diagnosis), fixed: fixed as Repaired | null };
}

const planGolden = (task: Task) => runActions(domain(), task, actionsFromPlan(task, domain().world), { role: "golden", label: "golden" });

describe("repairs of what verification diagnoses", () => {
  it("planted weak goal checks (always true; looking at the wrong row) are caught by the gates and removed", async () => {
    const task = withChecks(
      smallRelease(),
      "goal",
      plantedCheck("g-always", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "!=", value: "cancelled" }] }),
      plantedCheck("g-wrong-row", "goal", "final_row_state", { table: "payments", key: "PAY-00002", require: [{ column: "status", op: "=", value: "received" }] }),
    );
    const first = await repairOnce(task, golden(task));
    expect(first.diagnosis).toBe('violations (check g-always, operator do_nothing): mutant do_nothing (opening message only) survived check g-always: payments[PAY-00001] satisfies status != "cancelled" in the final state (never changed from the initial state)');
    expect(first.fixed?.action).toBe("removed goal check g-always (a do-nothing trace passes it)");
    const second = await repairOnce(first.fixed!.task, golden(task));
    expect(second.diagnosis).toBe('violations (check g-wrong-row, operator do_nothing): mutant do_nothing (opening message only) survived check g-wrong-row: payments[PAY-00002] satisfies status = "received" in the final state (never changed from the initial state)');
    expect(second.fixed?.action).toBe("removed goal check g-wrong-row (a do-nothing trace passes it)");
    const repaired = second.fixed!.task;
    expect(repaired.checks.goal.map((c) => c.id)).toEqual(["g-released"]);
    expect(verifyTask(domain(), repaired, golden(task)).diagnosis).toBeNull();
  });

  it("a planted unsolvable plan (wrong payment reference) is repaired by re-deriving its arguments", async () => {
    const base = smallRelease();
    const task: Task = { ...base, reference_plan: base.reference_plan.map((s) => (s.args.payment_id === "PAY-00001" ? { ...s, args: { ...s.args, payment_id: "PAY-00009" } } : s)) };
    const r = await repairOnce(task, planGolden(task));
    expect(r.diagnosis).toMatch(/^golden_replay \(check g-released, event 6\): the golden trace fails check g-released: /);
    expect(r.fixed?.action).toBe(
      're-derived plan arguments: step 1 (get_payment): payment_id "PAY-00009" → "PAY-00001"; step 4 (validate_payment): payment_id "PAY-00009" → "PAY-00001"; step 6 (release_payment): payment_id "PAY-00009" → "PAY-00001"',
    );
    const resolved = planGolden(r.fixed!.task);
    expect(resolved.events.at(-1)).toMatchObject({ name: "release_payment", status: "executed" });
    expect(verifyTask(domain(), r.fixed!.task, resolved).diagnosis).toBeNull();
  });

  it("a planted unsolvable goal has no repair", async () => {
    const base = smallRelease();
    const task: Task = { ...base, checks: { ...base.checks, goal: [plantedCheck("g-cancelled", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "=", value: "cancelled" }] })] } };
    const r = await repairOnce(task, golden(task));
    expect(r.diagnosis).toBe('golden_replay (check g-cancelled, event 8): the golden trace fails check g-cancelled: payments[PAY-00001].status = "released" != "cancelled" in the final state (last changed at event 8 (release_payment))');
    expect(r.fixed).toBeNull();
  });

  it("chains repairers: the graph's own first, then the default", async () => {
    const calls: string[] = [];
    const graphs: RepairFn = (_t, d) => {
      calls.push(d.code ?? "");
      return null;
    };
    const task = withChecks(smallRelease(), "goal", plantedCheck("g-always", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "!=", value: "cancelled" }] }));
    const r = await repairOnce(task, golden(task), chainRepairers(graphs, defaultRepairer));
    expect([calls, r.fixed?.action]).toEqual([["weak_goal_check"], "removed goal check g-always (a do-nothing trace passes it)"]);
  });
});

describe("gate crashes", () => {
  it("a gate that throws fails that gate with the error; the run stops there", () => {
    const boom = { name: "boom", description: "throws", targets: ["goal"], generate: () => { throw new Error("boom"); } };
    const v = verifyTask(domain(), smallRelease(), golden(smallRelease()), { operators: [boom] });
    expect(v.validation.gates.map((g) => [g.gate, g.passed])).toEqual([["golden_replay", true], ["scenario_consistency", true], ["alternatives", true], ["violations", false]]);
    expect(v.diagnosis).toMatchObject({ gate: "violations", code: "gate_crashed", detail: "gate crashed: boom" });
    expect(v.validation.drop_reason).toBe("violations: gate crashed: boom");
  });
});
