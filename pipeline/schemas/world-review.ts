import { z } from "zod";
import { Slug } from "./provenance.js";

/**
 * `sop/<domain>/world-review.json`: what `synth draft-world` (or the build's environment builder)
 * could not derive from the documents, item by item: what is missing and where the documents
 * mention it. A person works through it to turn the draft into the domain's world.
 */

export const ReviewPlace = z
  .object({
    file: z.string().describe("Document file (relative to the domain folder) or `world.yaml`."),
    line: z.number().int().min(1).nullable().describe("Line in that file, when known."),
    text: z.string().describe("What the documents say there (a message, a sentence, a step)."),
  })
  .strict();

export const ReviewItem = z
  .object({
    id: z.string().regex(/^W\d{3}$/).describe("Item id, W001… in document order."),
    kind: z
      .enum(["rows", "precondition", "effect", "result", "approval", "event", "operation", "parameter", "table", "model_errors", "feasibility"])
      .describe("What sort of thing is missing."),
    subject: z.string().min(1).describe("What it is about: `table payments`, `operation release_payment`, …"),
    what: z.string().min(1).describe("What is missing and what to write (in world.yaml terms)."),
    where: z.array(ReviewPlace).describe("Where the documents mention it."),
  })
  .strict();
export type ReviewItem = z.infer<typeof ReviewItem>;

export const WorldReview = z
  .object({
    domain: Slug.describe("Domain id."),
    strategy: z.enum(["deterministic", "llm"]).describe("How the world was drafted."),
    model: z.string().nullable().describe("The environment-builder's model (llm strategy), else null."),
    world_written: z.boolean().describe("Whether the draft was written as world.yaml (an llm draft that never passed its checks is not)."),
    summary: z
      .object({
        tables: z.number().int().min(0),
        columns: z.number().int().min(0),
        operations: z.number().int().min(0),
        parameters: z.number().int().min(0),
        preconditions: z.number().int().min(0),
        effects: z.number().int().min(0),
        rules: z.number().int().min(0),
        review_items: z.number().int().min(0),
      })
      .strict()
      .describe("Counts of what the draft holds, and of the review items."),
    items: z.array(ReviewItem).describe("What a person still has to write or decide."),
    llm: z
      .object({
        rounds: z.number().int().min(0).describe("Drafts the model wrote."),
        passed: z.boolean().describe("Whether the last draft passed every check."),
        last_errors: z.array(z.string()).describe("The problems of the last draft (empty when it passed)."),
        last_draft: z.string().nullable().describe("The last draft's world.yaml text when it was not written as world.yaml, so nothing is lost."),
      })
      .strict()
      .nullable()
      .describe("The model's feedback loop (llm strategy), else null."),
  })
  .strict()
  .describe("The review list of a drafted world.");
export type WorldReview = z.infer<typeof WorldReview>;
