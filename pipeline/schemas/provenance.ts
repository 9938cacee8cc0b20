import { z } from "zod";

/** Where an SOP element, rule or check came from: a clause of one version of one document. */
export const Provenance = z
  .object({
    document: z.string().min(1).describe("Id of the source document (front matter `id`)."),
    version: z.string().min(1).describe("Version of the document the element was taken from."),
    line_start: z.number().int().min(1).describe("First line (1-based) of the source text."),
    line_end: z.number().int().min(1).describe("Last line (1-based, inclusive) of the source text."),
    clause: z.string().optional().describe("Anchored clause id (e.g. `FX-3.1`) when the text has one."),
  })
  .strict()
  .refine((p) => p.line_end >= p.line_start, { message: "line_end must not be before line_start", path: ["line_end"] })
  .describe("Document id, version and line range of the text an element was derived from.");
export type Provenance = z.infer<typeof Provenance>;

/** A requirement stated by the customer in the task scenario rather than by a document. */
export const CustomerRequirement = z
  .object({
    task: z.string().min(1).describe("Task id whose scenario states the requirement."),
    requirement: z.string().min(1).describe("Id of the preference or objective item in the scenario."),
  })
  .strict()
  .describe("Provenance of a check that enforces what the customer asked for.");
export type CustomerRequirement = z.infer<typeof CustomerRequirement>;

/** A check's provenance: a document clause (rules) or a customer requirement (goals, preferences). */
export const CheckProvenance = z
  .union([
    z
      .object({
        source: z.literal("rule").describe("The check enforces a document rule."),
        rule: z.string().min(1).describe("Formal rule id."),
        at: Provenance,
        outdated: Provenance.optional().describe("The same clause in a version not in force (superseded, not yet effective or out of scope) that would lead to another action: the trap the check guards."),
      })
      .strict(),
    z.object({ source: z.literal("customer").describe("The check enforces a customer requirement."), at: CustomerRequirement }).strict(),
  ])
  .describe("Why a check exists: the rule (with its clause) or the customer requirement it enforces.");
export type CheckProvenance = z.infer<typeof CheckProvenance>;

/** Stable identifiers used across artifacts: lowercase words joined by `-` or `_`. */
export const Slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "must be lowercase letters, digits, '-' or '_', starting with a letter or digit");

/** Calendar date `YYYY-MM-DD`. */
export const IsoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");
