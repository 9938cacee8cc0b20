import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { z } from "zod";
import type { Task, Trace } from "../../schemas/index.js";
import type { RubricJudgment } from "../../schemas/evaluation-result.js";
import { structuredCall, type StructuredCallOptions } from "../../llm/structured-output.js";
import { EnvSimFailure } from "../env-sim/failure.js";
import type { Criterion } from "./criteria.js";

/** Independent judgments per criterion (the vote needs at least 3). */
export const RUBRIC_ROUNDS = 3;

type Model = StructuredCallOptions<z.ZodType>["model"];

const SYSTEM =
  "You verify an agent's work in a simulated business environment. For each criterion, decide from the transcript alone whether the agent's trajectory meets it: what it did, in which order, with which approvals, and what it left untouched. Give one verdict per criterion with a short reason citing the calls or messages that decide it.";

function judgmentSchema(criteria: readonly Criterion[]) {
  const ids = criteria.map((c) => c.id);
  return z
    .object({
      verdicts: z
        .array(z.object({ criterion: z.string().describe("Criterion id."), met: z.boolean().describe("Whether the trajectory meets it."), reason: z.string().min(1).describe("Why, citing the transcript.") }).strict())
        .describe("One verdict per criterion."),
    })
    .strict()
    .superRefine((a, ctx) => {
      const got = a.verdicts.map((v) => v.criterion);
      const missing = ids.filter((id) => !got.includes(id));
      const extra = got.filter((id, i) => !ids.includes(id) || got.indexOf(id) !== i);
      if (missing.length > 0 || extra.length > 0) ctx.addIssue({ code: "custom", path: ["verdicts"], message: `give exactly one verdict for each of ${ids.join(", ")}${missing.length ? `; missing ${missing.join(", ")}` : ""}${extra.length ? `; unknown or repeated ${extra.join(", ")}` : ""}` });
    })
    .meta({ title: "rubric_judgment" });
}

function transcript(trace: Trace): string {
  return trace.events
    .map((e) => (e.kind === "customer_message" || e.kind === "agent_message" ? `${e.index}. ${e.actor}: ${e.text ?? ""}` : `${e.index}. ${e.actor} ${e.name} ${JSON.stringify(e.args)} → ${e.status}: ${JSON.stringify(e.result ?? null)}`))
    .join("\n");
}

/**
 * RUBRIC_ROUNDS independent judgments of every criterion on a simulated trajectory: one model call
 * per round, each its own sample (`variant` judge-N, so neither the response cache nor the
 * provider folds them into one). Returns criterion id → its judgments in round order. A round
 * whose answer never fits (after the runtime's retries) or whose provider fails is an
 * EnvSimFailure: the episode cannot be judged and errors.
 */
export async function judgeRubric(model: (variant: string) => Model, native: boolean, task: Pick<Task, "objective" | "scenario">, trace: Trace, criteria: readonly Criterion[]): Promise<Map<string, RubricJudgment[]>> {
  const out = new Map<string, RubricJudgment[]>(criteria.map((c) => [c.id, []]));
  const user = [
    `The customer's request: ${task.scenario.opening_request}`,
    `Criteria:\n${criteria.map((c) => `- ${c.id} [${c.group}]: ${c.text}`).join("\n")}`,
    `Transcript:\n${transcript(trace)}`,
  ].join("\n\n");
  for (let round = 1; round <= RUBRIC_ROUNDS; round++) {
    const r = await structuredCall({ model: model(`judge-${round}`), schema: judgmentSchema(criteria), messages: [new SystemMessage(SYSTEM), new HumanMessage(user)], name: "rubric_judgment", native });
    if (!r.ok) throw new EnvSimFailure(r.error.kind, `rubric judge, round ${round}: ${r.error.failure?.message ?? r.error.message}`);
    for (const v of r.value.verdicts) out.get(v.criterion)?.push({ round, met: v.met, reason: v.reason });
  }
  return out;
}
