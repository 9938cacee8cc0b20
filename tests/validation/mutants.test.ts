import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Task } from "../../pipeline/schemas/index.js";
import { runMutants, type MutationRun } from "../../validation/mutants/run-mutants.js";
import { MUTATION_OPERATORS, MUTATION_OPERATOR_NAMES } from "../../validation/mutants/registry.js";
import { violationsGate } from "../../validation/gates/violations.js";
import { defaultRepairer } from "../../validation/repairs/default-repairer.js";
import { approvedRelease, domain, fundedRelease, golden, noteTask, smallRelease } from "./fixture.js";

const runs = new Map<string, MutationRun>();
const outcome = (id: string) => (runs.get(id) as MutationRun).mutants.map((m) => [m.operator, m.target_check, m.killed]);
const notApplicable = (id: string) => (runs.get(id) as MutationRun).notApplicable.map((n) => n.operator);

beforeAll(() => {
  for (const t of [smallRelease(), approvedRelease(), fundedRelease()]) runs.set(t.id, runMutants(domain(), t, golden(t)));
});

describe("mutation operators", () => {
  it("are registered in report order", () => {
    expect(MUTATION_OPERATOR_NAMES).toEqual([
      "drop_approval", "execute_before_approval", "change_terms_after_approval", "reuse_stale_approval", "reorder_dependent_steps", "take_other_branch", "breach_constraint_then_restore",
      "touch_protected_object", "follow_outdated_rule", "use_unobtained_fact", "miss_deadline", "act_before_information", "execute_twice", "do_nothing",
    ]);
  });

  it("are each described, name the kinds they target and are documented in validation/README.md", () => {
    const readme = readFileSync(new URL("../../validation/README.md", import.meta.url), "utf8");
    for (const op of MUTATION_OPERATORS) {
      expect(op.description.length).toBeGreaterThan(20);
      expect(op.targets.length).toBeGreaterThan(0);
      expect(readme).toContain(`| \`${op.name}\` |`);
    }
  });

  it("small release: every mutant fails on the check it targets", () => {
    expect(outcome("release-small")).toEqual([
      ["reorder_dependent_steps", "p-balance-first", true],
      ["breach_constraint_then_restore", "p-floor", true],
      ["touch_protected_object", "x-other-payment", true],
      ["touch_protected_object", "x-others", true],
      ["follow_outdated_rule", "p-fee", true],
      ["use_unobtained_fact", "p-invoice", true],
      ["miss_deadline", "p-cutoff", true],
      ["do_nothing", "g-released", true],
    ]);
    expect(notApplicable("release-small")).toEqual(["drop_approval", "execute_before_approval", "change_terms_after_approval", "reuse_stale_approval", "reorder_dependent_steps", "take_other_branch", "act_before_information", "execute_twice"]);
  });

  it("approved release: the approval operators hit the approval check", () => {
    expect(outcome("release-approved")).toEqual([
      ["drop_approval", "p-approval", true],
      ["execute_before_approval", "p-approval", true],
      ["change_terms_after_approval", "p-approval", true],
      ["breach_constraint_then_restore", "p-floor", true],
      ["touch_protected_object", "x-other-payment", true],
      ["touch_protected_object", "x-others", true],
      ["follow_outdated_rule", "p-fee", true],
      ["use_unobtained_fact", "p-invoice", true],
      ["miss_deadline", "p-cutoff", true],
      ["do_nothing", "g-released", true],
    ]);
  });

  it("funded release: a repeated transfer and an unasked amount are caught; one do-nothing mutant per goal check", () => {
    expect(outcome("fund-and-release")).toEqual([
      ["breach_constraint_then_restore", "p-floor", true],
      ["touch_protected_object", "x-other-payment", true],
      ["touch_protected_object", "x-others", true],
      ["follow_outdated_rule", "p-fee", true],
      ["use_unobtained_fact", "p-amount", true],
      ["use_unobtained_fact", "p-invoice", true],
      ["miss_deadline", "p-cutoff", true],
      ["execute_twice", "p-move-once", true],
      ["do_nothing", "g-released", true],
      ["do_nothing", "g-funded", true],
    ]);
  });

  it("says what each mutant did and why its target check failed", () => {
    const small = runs.get("release-small") as MutationRun;
    const breach = small.mutants.find((m) => m.operator === "breach_constraint_then_restore");
    expect(breach?.description).toBe('move_funds(from_account = "ACC-001", to_account = "ACC-002", amount = 35986) broke accounts[ACC-001], move_funds(from_account = "ACC-002", to_account = "ACC-001", amount = 35986) restored it');
    expect(breach?.reason).toBe("accounts[ACC-001].balance = 9999 < reserve_floor 10000 after event 9 (move_funds); restored at event 10 (move_funds) — a temporary breach fails");
    const drop = (runs.get("release-approved") as MutationRun).mutants.find((m) => m.operator === "drop_approval");
    expect(drop?.reason).toBe("release_approved_payment was never executed, but an approved execution is required; attempts at event 9 (rejected) did not run");
  });

  it("reports operators that do not apply, and mutants the world itself refuses, with their reason", () => {
    const reasons = (runs.get("release-small") as MutationRun).notApplicable.map((n) => n.reason);
    expect(reasons[0]).toBe("the golden trace obtains no approval");
    expect(reasons[3]).toBe("the golden trace renews no approval (no terms corrected after an approval)");
    expect(reasons[4]).toBe(
      'equivalent mutant: the world itself refused the violation (moved release_payment (golden action 6) before validate_payment (golden action 4): release_payment(payment_id = "PAY-00001", fee = 15) was rejected (validated: The payment has not been validated.))',
    );
  });

  it("kill rates per task: 8/8, 10/10, 10/10", () => {
    const rates = [...runs.values()].map((r) => `${r.mutants.filter((m) => m.killed).length}/${r.mutants.length}`);
    expect(rates).toEqual(["8/8", "10/10", "10/10"]);
  });
});

describe("gate 3: survivors", () => {
  it("a write no check counts survives a repeat: a gap with no target check", () => {
    const task: Task = { ...noteTask(), checks: { ...noteTask().checks, process: [] } };
    const gate = violationsGate(domain(), task, golden(task));
    expect(gate.passed).toBe(false);
    expect(gate.killRate).toBe(0.75);
    expect(gate.diagnosis).toMatchObject({ code: "mutant_survived", operator: "execute_twice", check: null });
    expect(gate.mutants.find((m) => !m.killed)?.reason).toBe("no check of the kinds it targets exists in the task; failed checks: none");
  });

  it("an approval check that passes when the execution never ran lets drop_approval survive; the repairer makes it required", () => {
    const task = approvedRelease();
    const lax: Task = { ...task, checks: { ...task.checks, process: task.checks.process.map((c) => (c.id === "p-approval" ? { ...c, params: { operation: "release_approved_payment" } } : c)) } };
    const gate = violationsGate(domain(), lax, golden(lax));
    expect(gate.mutants.filter((m) => !m.killed).map((m) => m.operator)).toEqual(["drop_approval", "execute_before_approval", "change_terms_after_approval"]);
    expect(gate.diagnosis).toMatchObject({ code: "survivor_never_executed", check: "p-approval", operator: "drop_approval" });
    const fixed = defaultRepairer(lax, gate.diagnosis!, 1, { ctx: domain(), golden: golden(lax) });
    expect(fixed && "action" in fixed ? fixed.action : null).toBe("set required: true on check p-approval, so a trace that never executes its operation fails it");
    const again = violationsGate(domain(), (fixed as { task: Task }).task, golden(lax));
    expect([again.passed, again.killRate]).toEqual([true, 1]);
  });
});

describe("breach_constraint_then_restore on every requirement form", () => {
  it("an `=` requirement (a balance that must not move) is breached for one step and restored, and the check catches it", () => {
    const base = smallRelease();
    const reserve = domain().world.tables.find((t) => t.name === "accounts")!.rows.find((r) => r.account_id === "ACC-002")!;
    const equal = {
      id: "p-reserve-fixed",
      group: "process" as const,
      kind: "invariant_holds",
      params: { table: "accounts", where: [{ column: "account_id", op: "=", value: "ACC-002" }], require: [{ column: "balance", op: "=", value: reserve.balance }] },
      description: "The reserve account's balance never moves.",
      provenance: base.checks.process[0]!.provenance,
    };
    const task: Task = { ...base, checks: { ...base.checks, process: [equal] } };
    const run = runMutants(domain(), task, golden(task));
    const breach = run.mutants.filter((m) => m.operator === "breach_constraint_then_restore");
    expect(breach.map((m) => [m.target_check, m.killed])).toEqual([["p-reserve-fixed", true]]);
    expect(breach[0]?.description).toBe('move_funds(from_account = "ACC-002", to_account = "ACC-001", amount = 1) broke accounts[ACC-002], move_funds(from_account = "ACC-001", to_account = "ACC-002", amount = 1) restored it');
    expect(breach[0]?.reason).toMatch(/^accounts\[ACC-002\]\.balance = \d+(\.\d+)? != \d+(\.\d+)? after event \d+ \(move_funds\); restored at event \d+ \(move_funds\) — a temporary breach fails$/);
  });
});
