import type { Task, TaskValidation, Trace } from "../schemas/index.js";
import type { DomainContext } from "../world/domain-context.js";
import type { Diagnosis } from "../agents/types.js";
import { runGates } from "../../validation/validate-task.js";
import { taskValidation } from "../../validation/task-validation.js";
import { probeGates } from "../../validation/gates/probe-gates.js";

/** What the verify stage keeps of a gate run: the diagnosis and the report entry (no traces). */
export interface Verification {
  diagnosis: Diagnosis | null;
  validation: TaskValidation;
}

/**
 * The validation gates (validation/) on one task, except the probe panel: golden replay, scenario
 * consistency, alternative executions, violation traces (mutation operators), modified facts.
 */
export async function verifyTask(ctx: DomainContext, task: Task, golden: Trace): Promise<Verification> {
  const run = await runGates(ctx, task, golden, { probes: false });
  const d = run.diagnosis;
  return { diagnosis: d ? JSON.parse(JSON.stringify(d)) as Diagnosis : null, validation: taskValidation(task.id, run, [], d ? `${d.gate}: ${d.detail}` : null) };
}

/** The probe panel on one verified task: solvable from the documents, not too easy, and its label. */
export async function calibrateTask(ctx: DomainContext, task: Task): Promise<{ verdict: "released"; difficulty: NonNullable<Task["difficulty"]>; probes: Record<string, boolean>; detail: string } | { verdict: "dropped"; reason: string; probes: Record<string, boolean> }> {
  const p = await probeGates(ctx, task);
  const failedGate = p.gates.find((g) => !g.passed);
  if (failedGate || !p.difficulty) return { verdict: "dropped", reason: `${failedGate?.gate ?? "difficulty"}: ${failedGate?.detail ?? "no label"}`, probes: p.probes };
  return { verdict: "released", difficulty: p.difficulty, probes: p.probes, detail: p.gates.map((g) => g.detail).join("; ") };
}
