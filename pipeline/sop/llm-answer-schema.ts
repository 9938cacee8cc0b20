import { z } from "zod";
import { Slug } from "../schemas/provenance.js";

const Lines = {
  line_start: z.number().int().min(1).describe("First file line (the number before the colon) of the text the item comes from."),
  line_end: z.number().int().min(1).describe("Last file line of that text."),
};

export const LlmRule = z.object({
  clause: z.string().nullable().describe("Clause id exactly as printed (e.g. `PAY-2.1`), or null when the text has none."),
  statement: z.string().min(1).describe("The rule quoted verbatim from the document."),
  action: z.string().min(1).describe("What the rule requires or forbids, briefly."),
  prerequisites: z.array(z.string()).default([]).describe("Conditions that must hold before the action, as written."),
  exceptions: z.array(z.string()).default([]).describe("Exceptions, as written."),
  affected_objects: z.array(z.string()).default([]).describe("Names of the listed operations or tables the rule constrains."),
  ...Lines,
  uncertain: z.boolean().default(false).describe("True when you are not sure this is a binding rule, or of its meaning."),
});
export type LlmRule = z.infer<typeof LlmRule>;

export const LlmStep = z.object({
  number: z.number().int().min(1).describe("Step number, 1 for the first step."),
  text: z.string().min(1).describe("The step quoted verbatim."),
  operation: z.string().nullable().describe("The one listed operation the step performs, or null."),
  actor: z.enum(["agent", "customer"]).describe("`customer` when the customer performs the step."),
  ...Lines,
});

export const LlmBranch = z.object({
  when: z.string().min(1).describe("Condition as written."),
  outcome: z.string().min(1).describe("What happens, as written."),
  kind: z.enum(["next", "goto", "return", "end"]).describe("`next`: on to the following step; `goto`: to a later step; `return`: back to an earlier step; `end`: the procedure ends."),
  step: z.number().int().min(1).nullable().describe("Target step number for `goto` and `return`, else null."),
});

export const LlmDecision = z.object({
  at_step: z.number().int().min(1).describe("Number of the step the decision is taken at."),
  question: z.string().min(1),
  branches: z.array(LlmBranch).min(1),
});

export const LlmWorkflow = z.object({
  id: Slug.describe("Short lowercase id for the procedure, e.g. `refund-request`."),
  title: z.string().min(1),
  ...Lines,
  steps: z.array(LlmStep).min(1),
  decisions: z.array(LlmDecision).default([]),
  uncertain: z.boolean().default(false).describe("True when you are not sure the text describes a procedure, or of its steps."),
});
export type LlmWorkflow = z.infer<typeof LlmWorkflow>;

/** What the model returns for one chunk. */
export const LlmChunkAnswer = z
  .object({
    rules: z.array(LlmRule).default([]),
    workflows: z.array(LlmWorkflow).default([]),
  })
  .meta({ title: "sop_chunk" })
  .describe("Rules and procedures stated in the chunk; empty lists when there are none.");
export type LlmChunkAnswer = z.infer<typeof LlmChunkAnswer>;
