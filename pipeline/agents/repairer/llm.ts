import { z } from "zod";
import type { Task, Trace } from "../../schemas/index.js";
import type { Diagnosis, DomainContext, RepairResult, Repairer } from "../types.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";

const Decision = z
  .object({
    action: z.enum(["remove_check", "drop_task"]).describe("remove_check: the check is wrong and is removed; drop_task: the task cannot be repaired."),
    check: z.string().nullable().describe("Id of the check to remove (remove_check only)."),
    explanation: z.string().min(10).describe("Why, in one or two sentences."),
  })
  .meta({ title: "repair_decision" });

export const REPAIRER_PROMPT = `You repair benchmark tasks that failed a validation gate. You get the task's checks, the
golden trace (the recorded reference episode, event by event) and the failing gate's diagnosis
(gate, check, event, detail, code). If the golden trace follows the procedure and a process or
protection check fails on it, that check asserts more than the rules require: remove it. A failing
goal, a task that cannot be solved, or a do-nothing trace that passes cannot be repaired by removing
a check: drop the task.`;

/** The golden trace as numbered lines the diagnosis's `event` points into. */
function goldenListing(trace: Trace): string {
  return trace.events.map((e) => JSON.stringify(e)).join("\n");
}

/** The repairer's llm strategy: a repair prompt carrying the diagnosis; the decision is applied and re-verified. */
export class LlmRepairer implements Repairer {
  readonly #opts: LlmStrategyOptions;
  constructor(opts: LlmStrategyOptions) {
    this.#opts = opts;
  }

  async repair(_ctx: DomainContext, task: Task, diagnosis: Diagnosis, _attempt: number, golden: Trace | null): Promise<RepairResult | null> {
    const checks = [...task.checks.goal, ...task.checks.process, ...task.checks.protection].map((c) => `${c.id} [${c.group}] ${c.kind} ${JSON.stringify(c.params)}: ${c.description}`).join("\n");
    const user = [
      `Task ${task.id}: ${task.objective}`,
      `Checks:\n${checks}`,
      `Golden trace:\n${golden ? goldenListing(golden) : "none: the task has not been solved (a task that cannot be solved cannot be repaired by removing a check)"}`,
      `Failing gate's diagnosis: ${JSON.stringify(diagnosis)}`,
    ].join("\n\n");
    const d = await askModel("repairer", this.#opts, Decision, REPAIRER_PROMPT, user, task.id);
    if (d.action === "drop_task" || !d.check) return null;
    for (const group of ["process", "protection"] as const) {
      if (!task.checks[group].some((c) => c.id === d.check)) continue;
      return { task: { ...task, checks: { ...task.checks, [group]: task.checks[group].filter((c) => c.id !== d.check) } }, action: `removed ${group} check ${d.check}: ${d.explanation}`, resume: "checked" };
    }
    return null;
  }
}
