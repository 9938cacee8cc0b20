import type { Task } from "../../pipeline/schemas/index.js";
import type { Repaired } from "./types.js";

/** The task without check `id`; null when it is unknown or the task's only goal check. */
export function removeCheck(task: Task, id: string, why: string): Repaired | null {
  const groups = ["goal", "process", "protection"] as const;
  const group = groups.find((g) => task.checks[g].some((c) => c.id === id));
  if (!group) return null;
  if (group === "goal" && task.checks.goal.length === 1) return null;
  const checks = { ...task.checks, [group]: task.checks[group].filter((c) => c.id !== id) };
  return { task: { ...task, checks }, action: `removed ${group} check ${id} (${why})` };
}
