import { describe, expect, it } from "vitest";
import type { Task } from "../../pipeline/schemas/index.js";
import { validateWithRepair } from "../../validation/repair-loop.js";
import { runGates } from "../../validation/validate-task.js";
import { chainRepairers, defaultRepairer } from "../../validation/repairs/default-repairer.js";
import type { RepairFn } from "../../validation/repairs/types.js";
import { domain, golden, plantedCheck, smallRelease, withChecks } from "./fixture.js";

const NO_PROBES = { probes: false } as const;

describe("repair loop", () => {
  it("planted weak goal checks (always true; looking at the wrong row) are caught by the gates and removed", async () => {
    const task = withChecks(
      smallRelease(),
      "goal",
      plantedCheck("g-always", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "!=", value: "cancelled" }] }),
      plantedCheck("g-wrong-row", "goal", "final_row_state", { table: "payments", key: "PAY-00002", require: [{ column: "status", op: "=", value: "received" }] }),
    );
    const r = await validateWithRepair(domain(), task, { golden: golden(task), gates: NO_PROBES });
    expect(r.validation.status).toBe("released");
    expect(r.validation.repairs).toEqual([
      {
        attempt: 1,
        diagnosis: 'violations (check g-always, operator do_nothing): mutant do_nothing (opening message only) survived check g-always: payments[PAY-00001] satisfies status != "cancelled" in the final state (never changed from the initial state)',
        action: "removed goal check g-always (a do-nothing trace passes it)",
      },
      {
        attempt: 2,
        diagnosis: 'violations (check g-wrong-row, operator do_nothing): mutant do_nothing (opening message only) survived check g-wrong-row: payments[PAY-00002] satisfies status = "received" in the final state (never changed from the initial state)',
        action: "removed goal check g-wrong-row (a do-nothing trace passes it)",
      },
    ]);
    expect(r.task.checks.goal.map((c) => c.id)).toEqual(["g-released"]);
  });

  it("a planted unsolvable plan (wrong payment reference) is repaired by re-deriving its arguments", async () => {
    const base = smallRelease();
    const task: Task = { ...base, reference_plan: base.reference_plan.map((s) => (s.args.payment_id === "PAY-00001" ? { ...s, args: { ...s.args, payment_id: "PAY-00009" } } : s)) };
    const r = await validateWithRepair(domain(), task, { gates: NO_PROBES });
    expect(r.validation.status).toBe("released");
    expect(r.validation.repairs).toHaveLength(1);
    expect(r.validation.repairs[0]?.diagnosis).toMatch(/^golden_replay \(check g-released, event 6\): the golden trace fails check g-released: /);
    expect(r.validation.repairs[0]?.action).toBe(
      're-derived plan arguments: step 1 (get_payment): payment_id "PAY-00009" → "PAY-00001"; step 4 (validate_payment): payment_id "PAY-00009" → "PAY-00001"; step 6 (release_payment): payment_id "PAY-00009" → "PAY-00001"',
    );
    expect(r.golden?.events.at(-1)).toMatchObject({ name: "release_payment", status: "executed" });
  });

  it("a planted unsolvable goal is dropped with its reason", async () => {
    const base = smallRelease();
    const task: Task = { ...base, checks: { ...base.checks, goal: [plantedCheck("g-cancelled", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "=", value: "cancelled" }] })] } };
    const r = await validateWithRepair(domain(), task, { golden: golden(task), gates: NO_PROBES });
    expect(r.validation.status).toBe("dropped");
    expect(r.validation.drop_reason).toBe(
      'cannot be repaired: golden_replay (check g-cancelled, event 8): the golden trace fails check g-cancelled: payments[PAY-00001].status = "released" != "cancelled" in the final state (last changed at event 8 (release_payment))',
    );
    expect(r.validation.repairs).toEqual([{ attempt: 1, diagnosis: r.validation.drop_reason?.replace("cannot be repaired: ", ""), action: "none: the repairer had nothing to try" }]);
  });

  it("a solver that cannot solve the task drops it with the solver's reason", async () => {
    const r = await validateWithRepair(domain(), smallRelease(), { solve: () => ({ ok: false, reason: "no route to the goal" }), gates: NO_PROBES });
    expect(r.validation.drop_reason).toBe("cannot be repaired: golden_replay: no golden trace: no route to the goal");
  });

  it("stops after maxAttempts repairs that do not help", async () => {
    const useless: RepairFn = (t, _d, attempt) => ({ task: { ...t, title: `${t.title} (${attempt})` }, action: `retitled (${attempt})` });
    const task = withChecks(smallRelease(), "goal", plantedCheck("g-always", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "!=", value: "cancelled" }] }));
    const r = await validateWithRepair(domain(), task, { golden: golden(task), repair: useless, maxAttempts: 2, gates: NO_PROBES });
    expect(r.validation.repairs.map((x) => x.action)).toEqual(["retitled (1)", "retitled (2)"]);
    expect(r.validation.drop_reason).toMatch(/^violations \(check g-always, operator do_nothing\): .* \(still failing after 2 repair attempts\)$/);
  });

  it("chains repairers: the graph's own first, then the default", async () => {
    const calls: string[] = [];
    const graphs: RepairFn = (_t, d) => {
      calls.push(d.code ?? "");
      return null;
    };
    const task = withChecks(smallRelease(), "goal", plantedCheck("g-always", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "!=", value: "cancelled" }] }));
    const r = await validateWithRepair(domain(), task, { golden: golden(task), repair: chainRepairers(graphs, defaultRepairer), gates: NO_PROBES });
    expect([calls, r.validation.status]).toEqual([["weak_goal_check"], "released"]);
  });
});

describe("gate crashes", () => {
  it("a gate that throws fails that gate with the error; the run stops there", async () => {
    const boom = { name: "boom", description: "throws", targets: ["goal"], generate: () => { throw new Error("boom"); } };
    const run = await runGates(domain(), smallRelease(), golden(smallRelease()), { operators: [boom], probes: false });
    expect(run.gates.map((g) => [g.gate, g.passed])).toEqual([["golden_replay", true], ["scenario_consistency", true], ["alternatives", true], ["violations", false]]);
    expect(run.diagnosis).toMatchObject({ gate: "violations", code: "gate_crashed", detail: "gate crashed: boom" });
  });
});
