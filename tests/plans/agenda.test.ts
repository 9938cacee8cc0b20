import { describe, expect, it } from "vitest";
import { agenda, timedOperations, type SurveyedUnit } from "../../pipeline/agents/task-designer/agenda.js";
import type { WorldModel } from "../../pipeline/schemas/index.js";
import type { DerivedPlan } from "../../pipeline/agents/plan/derive-plan.js";

function unit(name: string, plan: Partial<DerivedPlan>): SurveyedUnit {
  return { customer: { id: name }, unit: { workflow: { id: name } } as never, plan: { actions: [], facts: [], approvals: [], terminals: [], decisions: [], ...plan } };
}
const held = (when: string, outdated = false) => ({ workflow: "w", decision: "d1", at_step: "s1", when, held: true, operations: [], ...(outdated ? { outdated: { document: "doc", version: "1", clause: "C-1", value: 1 } } : {}) });

describe("slots spent on purpose: the designer's agenda", () => {
  it("anchors one unit per branch first, then traps, time and approvals, each unit once, in survey order", () => {
    const plain = unit("plain", {});
    const above = unit("above", { decisions: [held("the amount is above EUR 100")] });
    const above2 = unit("above2", { decisions: [held("the amount is above EUR 100")] });
    const below = unit("below", { decisions: [held("otherwise (not: the amount is above EUR 100)", true)] });
    const waits = unit("waits", { actions: [{ type: "wait", minutes: 30, workflow: "w", step: "s2", why: "" }] });
    const approves = unit("approves", { approvals: [{ kind: "k", terms: {} }] });
    const trap = unit("trap", { decisions: [{ ...held("x", true), held: false }] });
    const list = agenda([plain, above, above2, below, waits, approves, trap]);
    expect(list.map((u) => u.customer.id)).toEqual(["below", "above", "trap", "waits", "approves"]);
  });

  it("counts a call of an operation with a deadline as time deciding, like the rubric writer's deadline checks", () => {
    const world = {
      operations: [
        { name: "book", preconditions: [{ sql: "SELECT :now <= 479" }] },
        { name: "quote", preconditions: [] },
        { name: "plain", preconditions: [{ sql: "SELECT 1" }] },
      ],
      events: [{ id: "expiry", after: { operation: "quote", delay: 30 }, rule: "R-EXPIRY", effects: [] }],
      rules: [{ id: "R-EXPIRY", kind: "deadline" }],
    } as unknown as WorldModel;
    const ops = timedOperations(world);
    expect([...ops].sort()).toEqual(["book", "quote"]);
    const call = (operation: string) => ({ type: "call" as const, operation, args: {}, workflow: "w", step: "s1", why: "" });
    const books = unit("books", { actions: [call("book")] as never });
    const plain = unit("plain", { actions: [call("plain")] as never });
    expect(agenda([plain, books], ops).map((u) => u.customer.id)).toEqual(["books"]);
    expect(agenda([plain, books]).map((u) => u.customer.id)).toEqual([]);
  });
});
