import { describe, expect, it } from "vitest";
import { FormalRule, type Task, type WorldModel } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { runMutants } from "../../validation/mutants/run-mutants.js";
import { breachConstraintThenRestore } from "../../validation/mutants/breach-constraint-then-restore.js";
import { judge, resultOf } from "../../validation/judge.js";
import { checkWorldStructure } from "../../pipeline/world/check-world-structure.js";
import { ProblemList } from "../../pipeline/world/world-problems.js";
import { domain, golden, plantedCheck, smallRelease } from "./fixture.js";

/** A sum over rows: a client's operating accounts hold at least EUR 40,000.00 in total. */
const TOTAL = FormalRule.parse({
  id: "R-CLIENT-TOTAL",
  clause: { document: "liquidity-policy", clause: "LIQ-1.1" },
  kind: "invariant",
  description: "A client's operating accounts hold at least EUR 40,000.00 together.",
  invariant: { table: "accounts", where: [{ column: "kind", op: "=", value: "operating" }], total: { column: "balance", group_by: ["client_id"], op: ">=", value: 40000 } },
});

function withTotal(): DomainContext {
  const ctx = domain();
  return { ...ctx, world: { ...ctx.world, rules: [...ctx.world.rules, TOTAL] } };
}

function task(): Task {
  const t = smallRelease();
  // Only the sum is checked: the breach-then-restore mutant must find a breach of the total itself.
  return { ...t, checks: { ...t.checks, process: [plantedCheck("p-total", "process", "invariant_holds", { rule: "R-CLIENT-TOTAL" })] } };
}

describe("an invariant over a sum of rows", () => {
  it("holds on the golden trace, and a breach-then-restore violation trace moves the total across its bound and back: the check fails", () => {
    const ctx = withTotal();
    const t = task();
    const g = golden(t);
    expect(resultOf(judge(ctx, t, g), "p-total")).toMatchObject({ passed: true, reason: "the total of balance over accounts rows where kind = \"operating\", per client_id, >= 40000 held after every change" });
    const run = runMutants(ctx, t, g, [breachConstraintThenRestore]);
    expect(run.notApplicable).toEqual([]);
    expect(run.mutants).toHaveLength(1);
    const m = run.mutants[0]!;
    expect([m.operator, m.target_check, m.killed]).toEqual(["breach_constraint_then_restore", "p-total", true]);
    // The golden run released EUR 4,000.00 and a EUR 15.00 fee from ACC-001: 45,985.00 left, 5,986.00 more takes the total below 40,000.00.
    expect(m.description).toBe('move_funds(from_account = "ACC-001", to_account = "ACC-002", amount = 5986) broke accounts[ACC-001], move_funds(from_account = "ACC-002", to_account = "ACC-001", amount = 5986) restored it');
    expect(m.reason).toBe("the total of balance over accounts rows where kind = \"operating\", per client_id, >= 40000 broken for client_id = CL-001: total 39999 against 40000 after event 9 (move_funds); restored at event 10 (move_funds) — a temporary breach fails");
  });

  it("a total bounded by another table's column groups by exactly one column, and names columns that exist", () => {
    const ctx = domain();
    const bad = FormalRule.parse({ ...TOTAL, id: "R-BAD-TOTAL", invariant: { table: "accounts", where: [], total: { column: "balanse", group_by: ["client_id", "kind"], op: "<=", limit: { table: "clients", column: "name" } } } });
    const world: WorldModel = { ...ctx.world, rules: [...ctx.world.rules, bad] };
    const out = new ProblemList();
    checkWorldStructure(world, out);
    const codes = out.items.map((p) => [p.code, p.message]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ["WORLD_UNKNOWN_COLUMN", 'rule "R-BAD-TOTAL" names unknown column "accounts.balanse"'],
        ["WORLD_RULE_INVARIANT", 'rule "R-BAD-TOTAL": a total bounded by clients.name groups by exactly one column (the key of that table\'s row), got 2'],
      ]),
    );
    expect(() => FormalRule.parse({ ...TOTAL, invariant: { table: "accounts", where: [] } })).toThrow(/an invariant needs `require` \(per row\) or `total` \(a sum over rows\)/);
  });
});
