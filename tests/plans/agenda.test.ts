import { describe, expect, it } from "vitest";
import { agenda, type SurveyedUnit } from "../../pipeline/agents/task-designer/agenda.js";
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
});
