import { z } from "zod";
import { AcceptanceCheck, type Task } from "../../schemas/index.js";
import { CHECK_KINDS, getCheckKind } from "../../../validation/checks/index.js";
import type { DomainContext, RubricWriter } from "../types.js";
import { DeterministicRubricWriter } from "./deterministic.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";
import { RUBRIC_WRITER_PROMPT } from "./prompt.js";
import { rubricProblems } from "./answer-check.js";

/** The answer's shape: the list of checks (what the provider's structured output is asked for). */
const RubricShape = z.object({ checks: z.array(AcceptanceCheck).min(1).describe("Every acceptance check of the task.") }).meta({ title: "acceptance_checks" });

/**
 * Checks whose kinds exist and whose parameters those kinds accept, at least one goal check, and
 * everything they name real: operations of the world, rules and line ranges of the SOP, this task's
 * customer requirements. Every problem is shown to the model, which answers again.
 */
function rubricFor(dctx: DomainContext, task: Task) {
  return RubricShape.superRefine((r, ctx) => {
    r.checks.forEach((c, i) => {
      const kind = getCheckKind(c.kind);
      if (!kind) return ctx.addIssue({ code: "custom", path: ["checks", i, "kind"], message: `unknown check kind "${c.kind}"` });
      const p = kind.params.safeParse(c.params);
      if (!p.success) ctx.addIssue({ code: "custom", path: ["checks", i, "params"], message: z.prettifyError(p.error) });
    });
    if (!r.checks.some((c) => c.group === "goal")) ctx.addIssue({ code: "custom", path: ["checks"], message: "at least one goal check is required" });
    const ids = r.checks.map((c) => c.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: "custom", path: ["checks"], message: "check ids must be unique" });
    for (const p of rubricProblems(dctx, task, r.checks)) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
  });
}

/**
 * The rubric writer's llm strategy: the model reviews the deterministic draft against the task, the
 * rules and the registered check kinds, and returns the final checks. Unknown kinds and bad
 * parameters are shown to the model and retried; the verification gates then test the result.
 */
export class LlmRubricWriter implements RubricWriter {
  readonly #opts: LlmStrategyOptions;
  constructor(opts: LlmStrategyOptions) {
    this.#opts = opts;
  }

  async writeChecks(ctx: DomainContext, task: Task): Promise<Task> {
    const draft = await new DeterministicRubricWriter().writeChecks(ctx, task);
    const kinds = CHECK_KINDS.map((k) => `- ${k.kind} (${k.group}): ${k.description}`).join("\n");
    const rules = ctx.world.rules.map((r) => `- ${r.id} (${r.kind}, ${r.clause.document} ${r.clause.clause}): ${r.description}`).join("\n");
    const user = [
      `Task ${task.id}: ${task.objective}`,
      `Reference plan:\n${task.reference_plan.map((p) => `${p.step}. ${p.operation} ${JSON.stringify(p.args)}`).join("\n")}`,
      `Customer facts: ${task.scenario.private_facts.map((f) => f.id).join(", ") || "none"}; approvals: ${JSON.stringify(task.scenario.approves)}`,
      `Formal rules:\n${rules}`,
      `Operations: ${ctx.world.operations.map((o) => o.name).join(", ")}`,
      `Check kinds:\n${kinds}`,
      `Draft checks:\n${JSON.stringify([...draft.checks.goal, ...draft.checks.process, ...draft.checks.protection])}`,
    ].join("\n\n");
    const { checks } = await askModel("rubric-writer", this.#opts, rubricFor(ctx, task), RUBRIC_WRITER_PROMPT, user, task.id);
    const group = (g: AcceptanceCheck["group"]) => checks.filter((c) => c.group === g);
    return { ...task, checks: { goal: group("goal"), process: group("process"), protection: group("protection") } };
  }
}
