import { describe, expect, it } from "vitest";
import type { Task } from "../../pipeline/schemas/index.js";
import { modifiedFactsGate } from "../../validation/gates/modified-facts.js";
import { factChanges } from "../../validation/modified-facts/candidates.js";
import { domain, golden, plantedCheck, smallRelease } from "./fixture.js";

describe("gate 4: modified facts", () => {
  it("derives candidates from precondition literals, compared columns, declared values and invariant bounds", () => {
    const task = smallRelease();
    const tried = factChanges(domain(), task, golden(task)).map((c) => `${c.table}[${c.key}].${c.column}→${c.to} (${c.why})`);
    expect(tried).toContain("payments[PAY-00001].amount→10001 (literal 10000 in a precondition)");
    expect(tried).toContain("payments[PAY-00001].screening→pending (another value of screening)");
    expect(tried).toContain("accounts[ACC-001].balance→10000 (compared with reserve_floor in a precondition)");
    expect(tried).toContain("accounts[ACC-001].reserve_floor→45986 (invariant R-FLOOR bound moved above the value the golden trace leaves)");
    expect(tried).toHaveLength(18);
  });

  it("an amount moved above the approval limit makes the world refuse the release, and the goal check flips", () => {
    const task = smallRelease();
    const gate = modifiedFactsGate(domain(), task, golden(task));
    expect(gate.passed).toBe(true);
    const above = gate.trials.find((t) => t.change.column === "amount" && t.change.to === 10001);
    expect(above?.crossed).toEqual({ event: 8, name: "release_payment", reason: "within_limit: Payments above EUR 10,000.00 need the client's approval: use release_approved_payment." });
    expect(above?.flipped).toEqual(["g-released", "p-cutoff"]);
    // Below the limit nothing crosses and nothing flips; a redundant refusal (already validated) is no crossing either.
    expect(gate.trials.find((t) => t.change.column === "amount" && t.change.to === 9999)).toMatchObject({ crossed: null, flipped: [] });
    expect(gate.detail.startsWith("tried 18 modified facts: 10 crossed a threshold the world enforces, 10 of them flipped the judgment")).toBe(true);
  });

  it("checks that never look at the outcome do not flip: the gate names the crossing", () => {
    const task = smallRelease();
    const blind: Task = { ...task, checks: { goal: [plantedCheck("g-read", "goal", "action_executed", { operation: "get_payment" })], process: [], protection: [] } };
    const gate = modifiedFactsGate(domain(), blind, golden(blind));
    expect(gate.passed).toBe(false);
    expect(gate.diagnosis).toMatchObject({ gate: "modified_facts", code: "judgment_not_flipped", event: 8 });
    expect(gate.detail).toMatch(/payments\[PAY-00001\]\.amount 4000 → 10001 \(literal 10000 in a precondition\) made the world refuse release_payment at event 8 .*, yet every check still passes$/);
  });
});
