import type { AcceptanceCheck, SimulatedTask, Task } from "../../schemas/index.js";

/** One rubric criterion: what a check asserts and why it exists, in words. */
export interface Criterion {
  id: string;
  group: "goal" | "process" | "protection";
  text: string;
}

function why(c: AcceptanceCheck): string {
  const p = c.provenance;
  if (p.source === "rule") return `rule ${p.rule} (${p.at.document} v${p.at.version}${p.at.clause ? ` ${p.at.clause}` : ""})`;
  return `the customer requirement ${p.at.requirement}`;
}

/**
 * The rubric of a task: one criterion per acceptance check, from its description and provenance
 * only — never its kind, parameters or code, which are the executable truth a simulated episode
 * has no state for.
 */
export function rubricCriteria(task: Pick<Task, "checks">): Criterion[] {
  return (["goal", "process", "protection"] as const).flatMap((group) => task.checks[group].map((c) => ({ id: c.id, group, text: `${c.description} (enforces ${why(c)})` })));
}

/** The rubric of a simulated-only task: its own criteria, each with the clauses it enforces. */
export function simulatedRubricCriteria(task: Pick<SimulatedTask, "rubric">): Criterion[] {
  return task.rubric.map((c) => ({ id: c.id, group: c.group, text: `${c.text} (enforces ${c.clauses.join(", ")})` }));
}
