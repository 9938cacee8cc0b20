import { describe, expect, it } from "vitest";
import { buildDomainContext, loadValidDomain } from "../../pipeline/build/load-context.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { DeterministicTaskDesigner, buildTask, namedCustomers } from "../../pipeline/agents/task-designer/deterministic.js";
import { WorldIndex } from "../../pipeline/agents/plan/world-index.js";
import { DomainRows } from "../../pipeline/agents/plan/domain-rows.js";
import { derivePlan, type NeededFact, type PlanUnit, type DerivedPlan } from "../../pipeline/agents/plan/derive-plan.js";
import { fromReferencePlan, toReferencePlan } from "../../pipeline/agents/plan/actions.js";
import { executePlan } from "../../pipeline/agents/plan/execute-plan.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { runMutants } from "../../validation/mutants/run-mutants.js";
import { judge, resultOf } from "../../validation/judge.js";
import type { Task } from "../../pipeline/schemas/index.js";

// fx-treasury: "A spot quote is valid for 30 minutes" (FXT-3.1, R-FX-QUOTE-EXPIRY, kind deadline);
// the world's fx_quote_expiry event fires 30 minutes after request_fx_quote.
describe("a deadline relative to an earlier call: an FX quote that expires", () => {
  it("the rubric writer bounds the booking to 29 minutes after the quote, and booking after expiry fails that check", async () => {
    const dir = "sources/fx-treasury";
    const ctx = buildDomainContext(dir, extractLoadedSync(loadValidDomain(dir)).sop);
    const index = new WorldIndex(ctx.world);
    const rows = new DomainRows(ctx, index);
    const wf = ctx.sop.workflows.filter((w) => w.id === "fx-conversion");
    const customer = namedCustomers(ctx, index).find((c) => c.client_id === "CL-110")!;
    const draft = (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]): Task => buildTask(ctx, "fx-quote", customer, "client_id", u, f, a, []);
    const unit = new DeterministicTaskDesigner().feasibleUnits(ctx, index, rows, wf, customer, draft)[0]!;
    rows.close();
    const plan = derivePlan(ctx, index, draft([unit]), [unit]);
    if ("reason" in plan) throw new Error(plan.reason);
    const task = await new DeterministicRubricWriter().writeChecks(ctx, buildTask(ctx, "fx-quote", customer, "client_id", [unit], plan.facts, plan.approvals, toReferencePlan(plan.actions), undefined, plan.decisions));
    const id = "process-book_fx_conversion-within-29-after-request_fx_quote";
    const check = task.checks.process.find((c) => c.id === id);
    expect(check).toMatchObject({ kind: "deadline_met", params: { operation: "book_fx_conversion", args: {}, after: { operation: "request_fx_quote", args: { client_id: "CL-110" }, within: 29 } }, provenance: { source: "rule", rule: "R-FX-QUOTE-EXPIRY" } });

    const run = executePlan(ctx, task, fromReferencePlan(task.reference_plan), { role: "golden" });
    const golden = run.trace;
    run.close();
    const judged = judge(ctx, task, golden);
    expect(judged.failed).toEqual([]);
    const verdict = resultOf(judged, id);
    expect(verdict?.passed).toBe(true);
    expect(verdict?.reason).toMatch(/^event \d+ \(book_fx_conversion\) executed at minute 0, within the deadline 29 \(29 minutes after event \d+ \(request_fx_quote\) at minute 0\)$/);

    const late = runMutants(ctx, task, golden).mutants.find((m) => m.operator === "miss_deadline" && m.target_check === id);
    expect(late).toMatchObject({ killed: true, description: "waited 30 minutes before book_fx_conversion, to minute 30 (deadline 29, 29 minutes after request_fx_quote)" });
  }, 60_000);
});
