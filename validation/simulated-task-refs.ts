import type { SimulatedTask } from "../pipeline/schemas/simulated.js";
import { definedClauses } from "../pipeline/sources/clause-id.js";

/** A problem of a simulated-only task's references: the field path and what is wrong. */
export interface RefProblem {
  path: string;
  message: string;
}

/** Every clause id the domain's documents define (a bold clause id opening a paragraph or list item). */
export function domainClauses(documents: ReadonlyArray<{ text: string }>): Set<string> {
  return new Set(documents.flatMap((d) => definedClauses(d.text).map((c) => c.id)));
}

/**
 * What the task designer's and the repairer's answers are checked against, and what the audit
 * checks again on a release: every solution step calls a tool of the task's configuration, and
 * every clause a step or a rubric criterion cites is defined in one of the domain's documents;
 * rubric criterion ids are unique.
 */
export function simulatedTaskRefProblems(task: Pick<SimulatedTask, "solution_plan" | "rubric">, tools: ReadonlySet<string>, clauses: ReadonlySet<string>): RefProblem[] {
  const out: RefProblem[] = [];
  const unknown = (c: string) => `cites clause ${c}, which no document of the domain defines (defined: ${[...clauses].sort().join(", ")})`;
  task.solution_plan.forEach((s, i) => {
    if (!tools.has(s.tool)) out.push({ path: `solution_plan.${i}.tool`, message: `calls ${s.tool}, which is not a tool of the environment configuration (tools: ${[...tools].join(", ")})` });
    s.clauses.forEach((c, j) => clauses.has(c) || out.push({ path: `solution_plan.${i}.clauses.${j}`, message: unknown(c) }));
  });
  const ids = new Set<string>();
  task.rubric.forEach((r, i) => {
    if (ids.has(r.id)) out.push({ path: `rubric.${i}.id`, message: `criterion id ${r.id} is used twice` });
    ids.add(r.id);
    r.clauses.forEach((c, j) => clauses.has(c) || out.push({ path: `rubric.${i}.clauses.${j}`, message: unknown(c) }));
  });
  return out;
}
