import { beforeAll, describe, expect, it } from "vitest";
import { buildDomainContext, loadValidDomain } from "../../pipeline/build/load-context.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { DeterministicTaskDesigner, buildTask, designableWorkflows, namedCustomers } from "../../pipeline/agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { WorldIndex } from "../../pipeline/agents/plan/world-index.js";
import { DomainRows, type Row } from "../../pipeline/agents/plan/domain-rows.js";
import { derivePlan, type DerivedPlan, type NeededFact, type PlanUnit } from "../../pipeline/agents/plan/derive-plan.js";
import { fromReferencePlan, toReferencePlan } from "../../pipeline/agents/plan/actions.js";
import { executePlan } from "../../pipeline/agents/plan/execute-plan.js";
import { runMutants } from "../../validation/mutants/run-mutants.js";
import { reuseStaleApproval } from "../../validation/mutants/reuse-stale-approval.js";
import { dropApproval } from "../../validation/mutants/drop-approval.js";
import { runProbe } from "../../validation/probes/probe-agent.js";
import { COMPETENT } from "../../validation/probes/probe-style.js";
import { judge } from "../../validation/judge.js";
import { actionsOf, parseActions, runActions } from "../../validation/episode-actions.js";
import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";

// A renewed approval on the customs sample domain: the declarant approves an amendment and corrects
// the customs value right after; the corrected terms need their own proposal and approval.

const RENEWAL = { kind: "declaration_amendment", param: "corrected_customs_value", value: 12376, statement: "One correction to what I just approved, please: the corrected customs value must be 12376.00, not 11900.00." };

let ctx: DomainContext;
let task: Task;
let golden: Trace;

beforeAll(async () => {
  const dir = "sources/customs-clearance";
  ctx = buildDomainContext(dir, extractLoadedSync(loadValidDomain(dir)).sop);
  const index = new WorldIndex(ctx.world);
  const rows = new DomainRows(ctx, index);
  try {
    const customer = namedCustomers(ctx, index).find((c) => c.importer_id === "IMP-206") as Row;
    const draft = (u: PlanUnit[]) => (f: NeededFact[], a: DerivedPlan["approvals"]) => buildTask(ctx, "customs-clearance-901", customer, "importer_id", u, f, a, []);
    const unit = new DeterministicTaskDesigner().surveyUnits(ctx, index, rows, designableWorkflows(ctx, index), customer, draft).find((s) => s.unit.workflow.id === "amend-declaration" && s.unit.key === "DEC-26-004261")!.unit;
    const plan = derivePlan(ctx, index, draft([unit]), [unit], [RENEWAL]);
    if ("reason" in plan) throw new Error(plan.reason);
    const drafted = buildTask(ctx, "customs-clearance-901", customer, "importer_id", [unit], plan.facts, plan.approvals, toReferencePlan(plan.actions), undefined, plan.decisions, [RENEWAL]);
    task = await new DeterministicRubricWriter().writeChecks(ctx, drafted);
    const run = executePlan(ctx, task, fromReferencePlan(task.reference_plan), { role: "golden" });
    golden = run.trace;
    run.close();
  } finally {
    rows.close();
  }
});

describe("renewed approvals", () => {
  it("the golden trace proposes, gets approval, hears the correction, proposes the corrected terms and gets a new approval before amending", () => {
    const seq = golden.events.filter((e) => e.name !== "read_document" && !(e.actor === "agent" && e.name === "message")).map((e) => `${e.actor} ${e.name}${e.name === "propose_amendment" || e.name === "amend_declaration" ? ` ${String(e.args.corrected_customs_value)}` : ""}${e.actor === "customer" && e.name === "message" && e.text?.startsWith("One correction") ? " (correction)" : ""}`);
    const from = seq.indexOf("agent propose_amendment 11900");
    expect(seq.slice(from)).toEqual([
      "agent propose_amendment 11900",
      "customer approve_amendment",
      "customer message (correction)",
      "agent propose_amendment 12376",
      "customer approve_amendment",
      "agent amend_declaration 12376",
    ]);
    expect(task.scenario.approves.map((a) => a.terms.corrected_customs_value)).toEqual([11900, 12376]);
    expect(judge(ctx, task, golden).failed).toEqual([]);
  });

  it("the approval check requires the corrected execution: reuse_stale_approval (the terms first approved, still approved in the world) fails it", () => {
    const check = task.checks.process.find((c) => c.kind === "approval_before_execution")!;
    expect(check.params).toEqual({ operation: "amend_declaration", required: true, args: { corrected_customs_value: 12376 } });
    const run = runMutants(ctx, task, golden, [reuseStaleApproval]);
    expect(run.notApplicable).toEqual([]);
    const m = run.mutants[0]!;
    expect([m.operator, m.target_check, m.killed]).toEqual(["reuse_stale_approval", check.id, true]);
    expect(m.failed_checks).toContain(check.id);
    expect(m.reason).toBe("amend_declaration with corrected_customs_value = 12376 was never executed, but an approved execution is required");
    // Without the corrected value in the check, the stale execution passes it: the world accepted it.
    const weak = { ...task, checks: { ...task.checks, process: task.checks.process.map((c) => (c.id === check.id ? { ...c, params: { operation: "amend_declaration", required: true } } : c)) } };
    const survived = runMutants(ctx, weak, golden, [reuseStaleApproval]).mutants[0]!;
    expect(survived.failed_checks).not.toContain(check.id);
  });

  it("dropping the stale approval is no violation (the renewal alone enables the amendment): drop_approval targets only the renewal", () => {
    const run = runMutants(ctx, task, golden, [dropApproval]);
    expect(run.mutants).toHaveLength(1);
    expect(run.mutants[0]!.description).toMatch(/^dropped the approval of the declaration_amendment proposal made by propose_amendment \(golden action \d+\)$/);
    expect(run.mutants[0]!.killed).toBe(true);
  });

  it("the golden trace's actions, run again with the scripted customer, give the same events: the correction is the approval's reply, said once", () => {
    const parsed = parseActions(golden);
    const approve = parsed.find((p) => p.action.type === "approve" && p.events.some((i) => golden.events[i - 1]?.text?.startsWith("One correction")))!;
    expect(approve.events.map((i) => golden.events[i - 1]!.kind)).toEqual(["agent_message", "approval", "customer_message"]);
    expect(parsed.some((p) => p.action.type === "customer_say" && p.action.text.startsWith("One correction"))).toBe(false);
    const again = runActions(ctx, task, actionsOf(golden), { role: "golden" });
    expect(again.events.map((e) => [e.kind, e.name, e.text ?? null])).toEqual(golden.events.map((e) => [e.kind, e.name, e.text ?? null]));
  });

  it("the competent probe hears the correction and solves the task", () => {
    const trace = runProbe(ctx, task, COMPETENT);
    expect(judge(ctx, task, trace).failed).toEqual([]);
    expect(trace.events.filter((e) => e.name === "amend_declaration" && e.status === "executed").map((e) => e.args.corrected_customs_value)).toEqual([12376]);
  });
});
