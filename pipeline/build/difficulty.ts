import type { Task } from "../schemas/index.js";

/**
 * Difficulty from structure: workflows combined, approvals to obtain, facts to elicit, waits, rules
 * that bite (process checks) and distractor documents. Used until the probe panel labels tasks.
 */
export function structuralDifficulty(task: Task): NonNullable<Task["difficulty"]> {
  const approvals = task.reference_plan.filter((p) => p.operation === "approve").length;
  const asks = task.reference_plan.filter((p) => p.operation === "ask").length;
  const waits = task.reference_plan.filter((p) => p.operation === "wait").length;
  const score = 2 * (task.workflows.length - 1) + 2 * approvals + asks + waits + (task.checks.process.length > 6 ? 1 : 0) + (task.documents.distractors.length > 0 ? 1 : 0);
  if (score <= 2) return "easy";
  if (score <= 4) return "medium";
  if (score <= 6) return "hard";
  return "expert";
}
