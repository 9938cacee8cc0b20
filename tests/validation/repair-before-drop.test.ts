import { describe, expect, it } from "vitest";
import { buildDomainContext, loadValidDomain } from "../../pipeline/build/load-context.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { fromReferencePlan } from "../../pipeline/agents/plan/actions.js";
import { executePlan } from "../../pipeline/agents/plan/execute-plan.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { DeterministicRepairer } from "../../pipeline/agents/repairer/deterministic.js";
import { calibrateTask, releaseTasks, verifyTask } from "../../validation/validate-task.js";
import type { Task } from "../../pipeline/schemas/index.js";

// A task the designer makes for ed-triage (slot 0, seed 7), with the rubric writer's checks; the tests
// plant a weakness in its rubric and let the validation and the repairer deal with it.
async function designed() {
  const dir = "sources/ed-triage";
  const ctx = buildDomainContext(dir, extractLoadedSync(loadValidDomain(dir)).sop);
  const r = await new DeterministicTaskDesigner().design(ctx, 0, new RandomStream(7).fork("task-slot/0"));
  if (!r.ok) throw new Error(r.reason);
  return { ctx, task: await new DeterministicRubricWriter().writeChecks(ctx, r.task) };
}

function goldenOf(ctx: Awaited<ReturnType<typeof designed>>["ctx"], task: Task) {
  const run = executePlan(ctx, task, fromReferencePlan(task.reference_plan), { role: "golden" });
  const trace = run.trace;
  run.close();
  return trace;
}

describe("repair before drop: a surviving mutant goes to the repairer first", () => {
  it("a planted weak rubric: without its fact checks, use_unobtained_fact survives; the repairer adds the rubric's checks with provenance, and the task is released", async () => {
    const { ctx, task } = await designed();
    const counts = task.checks.process.filter((c) => c.kind === "fact_elicited_before_use");
    expect(counts.length).toBeGreaterThan(0);
    const weak: Task = { ...task, checks: { ...task.checks, process: task.checks.process.filter((c) => c.kind !== "fact_elicited_before_use") } };

    const first = verifyTask(ctx, weak, goldenOf(ctx, weak));
    expect(first.diagnosis).toMatchObject({ gate: "violations", code: "mutant_survived", operator: "use_unobtained_fact", check: null });

    const fixed = await new DeterministicRepairer().repair(ctx, weak, first.diagnosis!, 0, null);
    expect(fixed?.resume).toBe("checked");
    expect(fixed?.action).toBe(`mutant use_unobtained_fact survived (no check of its kinds): ${counts.map((c) => `added process check ${c.id} (fact_elicited_before_use, from ${c.provenance.source === "rule" ? `rule ${c.provenance.rule}` : c.provenance.source})`).join("; ")}`);
    expect(fixed!.task.checks.process.filter((c) => c.kind === "fact_elicited_before_use")).toEqual(counts);

    const second = verifyTask(ctx, fixed!.task, goldenOf(ctx, fixed!.task));
    expect(second.diagnosis).toBeNull();
    expect(second.validation.mutants.filter((m) => m.operator === "use_unobtained_fact").every((m) => m.killed && m.target_check !== null)).toBe(true);
    const [verdict] = await releaseTasks([{ task: fixed!.task, validation: second.validation }], { calibrate: (t) => calibrateTask(ctx, t) });
    expect(verdict && verdict.status === "dropped" ? verdict.reason : verdict?.status).toBe("released");
  }, 120_000);

  it("a weakened check (a count allowing one run too many) is strengthened back to the rubric's", async () => {
    const { ctx, task } = await designed();
    const full = task.checks.process.filter((c) => c.kind === "execution_count").at(-1)!;
    const lax = { ...full, params: { ...full.params, max: Number((full.params as { max: number }).max) + 1 } };
    const weak: Task = { ...task, checks: { ...task.checks, process: task.checks.process.map((c) => (c.id === full.id ? lax : c)) } };
    const first = verifyTask(ctx, weak, goldenOf(ctx, weak));
    expect(first.diagnosis).toMatchObject({ code: "mutant_survived", operator: "execute_twice", check: full.id });
    const fixed = await new DeterministicRepairer().repair(ctx, weak, first.diagnosis!, 0, null);
    expect(fixed?.action).toBe(`mutant execute_twice survived check ${full.id}: strengthened process check ${full.id} (execution_count, from ${full.provenance.source === "rule" ? `rule ${full.provenance.rule}` : full.provenance.source})`);
    expect(fixed!.task.checks.process.find((c) => c.id === full.id)).toEqual(full);
    expect(verifyTask(ctx, fixed!.task, goldenOf(ctx, fixed!.task)).diagnosis).toBeNull();
  }, 120_000);

  it("nothing the rubric adds: no repair, so the task is dropped with its diagnosis", async () => {
    const { ctx, task } = await designed();
    const d = { gate: "violations", check: null, event: null, detail: "x", code: "mutant_survived", operator: "execute_twice" };
    expect(await new DeterministicRepairer().repair(ctx, task, d, 0, null)).toBeNull();
  }, 120_000);
});
