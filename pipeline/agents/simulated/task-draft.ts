import { z } from "zod";
import { SimulatedTask } from "../../schemas/simulated.js";
import { simulatedTaskRefProblems } from "../../../validation/simulated-task-refs.js";

/** The fields of a simulated-only task the model writes; id, domain, date and difficulty are the build's. */
const Draft = SimulatedTask.pick({ title: true, objective: true, customer_id: true, scenario: true, solution_plan: true, rubric: true, documents: true, max_turns: true });
export type SimulatedTaskDraft = z.infer<typeof Draft>;

/**
 * The schema of a drafted task, refusing a solution step whose tool the configuration does not
 * offer and a clause id no document defines (shown to the model, which is asked again).
 */
export function taskDraftSchema(tools: ReadonlySet<string>, clauses: ReadonlySet<string>, title: string) {
  return Draft.superRefine((d, ctx) => {
    for (const p of simulatedTaskRefProblems(d, tools, clauses)) ctx.addIssue({ code: "custom", path: p.path.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s)), message: p.message });
  }).meta({ title });
}

/** The task a draft makes: the build's id, domain and date, not yet calibrated. */
export function draftToTask(draft: SimulatedTaskDraft, id: string, domain: string, asOf: string): SimulatedTask {
  return SimulatedTask.parse({ id, domain, simulated_only: true, as_of: asOf, difficulty: null, ...draft });
}
