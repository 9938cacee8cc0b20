import type { Task } from "../../pipeline/schemas/index.js";
import type { Repaired } from "./types.js";

const KINDS: ReadonlySet<string> = new Set(["approval_before_execution", "deadline_met"]);

/**
 * Set `required: true` on a check that passed because its operation never ran (a dropped approval
 * makes the world refuse the execution; the check must then fail rather than pass vacuously).
 */
export function requireExecution(task: Task, id: string): Repaired | null {
  const process = task.checks.process.map((c) => (c.id === id && KINDS.has(c.kind) && (c.params as Record<string, unknown>).required !== true ? { ...c, params: { ...c.params, required: true } } : c));
  if (process.every((c, i) => c === task.checks.process[i])) return null;
  return { task: { ...task, checks: { ...task.checks, process } }, action: `set required: true on check ${id}, so a trace that never executes its operation fails it` };
}
