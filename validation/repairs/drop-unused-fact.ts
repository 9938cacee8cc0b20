import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { Repaired } from "./types.js";

/** Whether anything relies on a private fact: a check, an `ask` step of the plan, or a call passing its value. */
function used(task: Task, id: string, golden: Trace | null): boolean {
  const fact = task.scenario.private_facts.find((f) => f.id === id);
  if (!fact) return false;
  const checks = [...task.checks.goal, ...task.checks.process, ...task.checks.protection];
  if (checks.some((c) => (c.params as Record<string, unknown>).fact === id)) return true;
  if (task.reference_plan.some((s) => s.args.fact === id)) return true;
  return (golden?.events ?? []).some((e) => e.actor === "agent" && Object.entries(e.args).some(([k, v]) => (fact.param === undefined || k === fact.param) && String(v) === String(fact.value)));
}

/** Drop a private fact nothing uses (a scenario detail that contradicts the world and serves no check). */
export function dropUnusedFact(task: Task, id: string, golden: Trace | null): Repaired | null {
  if (!task.scenario.private_facts.some((f) => f.id === id) || used(task, id, golden)) return null;
  const scenario = { ...task.scenario, private_facts: task.scenario.private_facts.filter((f) => f.id !== id) };
  return { task: { ...task, scenario }, action: `dropped private fact ${id}, which no check, plan step or call uses` };
}
