import { beforeAll, describe, expect, it } from "vitest";
import { buildDomainContext, loadValidDomain } from "../../pipeline/build/load-context.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { DeterministicTaskDesigner, buildTask, designableWorkflows, mayJoin, namedCustomers } from "../../pipeline/agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { WorldIndex } from "../../pipeline/agents/plan/world-index.js";
import { DomainRows, type Row } from "../../pipeline/agents/plan/domain-rows.js";
import { derivePlan, type DerivedPlan, type NeededFact, type PlanUnit } from "../../pipeline/agents/plan/derive-plan.js";
import { toReferencePlan } from "../../pipeline/agents/plan/actions.js";
import type { Task } from "../../pipeline/schemas/index.js";
import { RandomStream } from "../../pipeline/core/random.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";

// Long tasks over the fx-treasury sample domain: one workflow on several rows of one client, pieces
// that make each other possible, and the rule that keeps contradictory pieces on one row apart.

let ctx: DomainContext;
let index: WorldIndex;
let rows: DomainRows;
const designer = new DeterministicTaskDesigner();

beforeAll(() => {
  const dir = "sources/fx-treasury";
  ctx = buildDomainContext(dir, extractLoadedSync(loadValidDomain(dir)).sop);
  index = new WorldIndex(ctx.world);
  rows = new DomainRows(ctx, index);
  return () => rows.close();
});

function client(id: string): { customer: Row; units: Map<string, PlanUnit>; alone: Set<string>; draft: (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => Task } {
  const customer = namedCustomers(ctx, index).find((c) => c.client_id === id) as Row;
  const draft = (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => buildTask(ctx, "fx-treasury-901", customer, "client_id", u, f, a, []);
  const surveyed = designer.surveyUnits(ctx, index, rows, designableWorkflows(ctx, index), customer, draft);
  return {
    customer,
    draft,
    units: new Map(surveyed.map((s) => [`${s.unit.workflow.id}:${String(s.unit.key)}`, s.unit])),
    alone: new Set(surveyed.filter((s) => s.reason === null).map((s) => `${s.unit.workflow.id}:${String(s.unit.key)}`)),
  };
}

describe("long tasks", () => {
  it("one workflow on two rows: the second piece's steps and decisions carry its index, and each piece gets its own goal and approval checks", async () => {
    const c = client("CL-101");
    const units = [c.units.get("payment-release:PAY-10002")!, c.units.get("payment-release:PAY-10006")!];
    const plan = derivePlan(ctx, index, c.draft(units), units);
    if ("reason" in plan) throw new Error(plan.reason);
    const steps = toReferencePlan(plan.actions);
    // The first piece is untagged (the first piece of its workflow); the second is unit 1.
    const tagged = steps.filter((s) => s.unit === 1);
    expect(tagged.length).toBeGreaterThan(0);
    expect(new Set(tagged.flatMap((s) => (s.args.payment_id ? [s.args.payment_id] : [])))).toEqual(new Set(["PAY-10006"]));
    expect(steps.filter((s) => s.unit === undefined && s.args.payment_id !== undefined).every((s) => s.args.payment_id === "PAY-10002")).toBe(true);
    expect(plan.decisions.filter((d) => d.unit === 1).length).toBeGreaterThan(0);
    const task = buildTask(ctx, "fx-treasury-901", c.customer, "client_id", units, plan.facts, plan.approvals, steps, undefined, plan.decisions);
    expect(task.workflows).toEqual(["payment-release", "payment-release"]);
    const checked = await new DeterministicRubricWriter().writeChecks(ctx, task);
    const goals = checked.checks.goal.filter((g) => g.kind === "action_executed").map((g) => [g.id, g.params]);
    expect(goals).toEqual([
      ["goal-payment-release-executed", { operation: "release_approved_payment", args: { payment_id: "PAY-10002", beneficiary_id: "BEN-1012", currency: "EUR" } }],
      ["goal-payment-release-executed-2", { operation: "release_approved_payment", args: { payment_id: "PAY-10006", beneficiary_id: "BEN-1012", currency: "EUR" } }],
    ]);
    // Two approved releases: one approval check each, bound to its payment.
    const approvals = checked.checks.process.filter((p) => p.kind === "approval_before_execution").map((p) => [p.id, p.params.args]);
    expect(approvals).toEqual([
      ["process-release_approved_payment-approved-PAY-10002-EUR-BEN-1012", { payment_id: "PAY-10002", currency: "EUR", beneficiary_id: "BEN-1012" }],
      ["process-release_approved_payment-approved-PAY-10006-EUR-BEN-1012", { payment_id: "PAY-10006", currency: "EUR", beneficiary_id: "BEN-1012" }],
    ]);
  });

  it("a piece that cannot be carried out alone joins after the piece that makes it possible (a payment to a beneficiary verified by call-back first)", () => {
    const c = client("CL-106");
    const release = c.units.get("payment-release:PAY-10051")!;
    const callback = c.units.get("beneficiary-callback:BEN-1061")!;
    expect(c.alone.has("payment-release:PAY-10051")).toBe(false);
    const alone = derivePlan(ctx, index, c.draft([release]), [release]);
    expect("reason" in alone && alone.reason).toMatch(/beneficiary_verified: The beneficiary is not verified/);
    const both = derivePlan(ctx, index, c.draft([callback, release]), [callback, release]);
    expect("reason" in both ? both.reason : "ok").toBe("ok");
  });

  it("pieces on one row must each be possible alone and decide different columns", () => {
    const c = client("CL-101");
    const isAlone = (u: PlanUnit) => c.alone.has(`${u.workflow.id}:${String(u.key)}`);
    const defer = c.units.get("next-day-scheduling:PAY-10001")!;
    const cancel = c.units.get("payment-cancellation:PAY-10001")!;
    const release = c.units.get("payment-release:PAY-10001")!;
    const recall = c.units.get("payment-recall:PAY-10001")!;
    const other = c.units.get("payment-cancellation:PAY-10002")!;
    // Moved to tomorrow, then cancelled: both set payments.status.
    expect(mayJoin(index, [defer], cancel, isAlone)).toBe(false);
    // Released, then recalled: the recall is only possible after the release.
    expect(mayJoin(index, [release], recall, isAlone)).toBe(false);
    // Another payment: free to join; the same piece twice: never.
    expect(mayJoin(index, [defer], other, isAlone)).toBe(true);
    expect(mayJoin(index, [defer], defer, isAlone)).toBe(false);
  });

  it("the designer's tasks combine several pieces for one client, and every plan ran on the live state", async () => {
    const lengths: number[] = [];
    const turns: number[] = [];
    for (let slot = 0; slot < 3; slot++) {
      const r = await designer.design(ctx, slot, new RandomStream(46).fork(`task-slot/${slot}`));
      if (!r.ok) throw new Error(r.reason);
      lengths.push(r.task.workflows.length);
      expect(new Set(r.task.reference_plan.map((s) => s.args.client_id).filter((x) => x !== undefined))).toEqual(new Set([r.task.customer_id]));
      // Room for an agent that does more than the plan: three turns per agent step, at least 60.
      const agentSteps = r.task.reference_plan.filter((s) => s.actor === "agent").length;
      expect(r.task.max_turns).toBe(Math.max(60, 3 * agentSteps));
      turns.push(r.task.max_turns);
    }
    expect(Math.max(...lengths)).toBeGreaterThanOrEqual(4);
    expect(Math.max(...turns)).toBeGreaterThan(60);
  });
});
