import { z } from "zod";
import { Slug, IsoDate } from "./provenance.js";

export const DOCUMENT_KINDS = ["policy", "procedure", "product_terms", "tool_manual", "faq"] as const;
export const DocumentKind = z.enum(DOCUMENT_KINDS).describe("What sort of document it is.");

/** Who or what a document applies to. Empty lists mean "no restriction" on that axis. */
export const DocumentScope = z
  .object({
    segments: z.array(z.string().min(1)).default([]).describe("Customer segments the document applies to (empty: all)."),
    regions: z.array(z.string().min(1)).default([]).describe("Regions or jurisdictions it applies to (empty: all)."),
    products: z.array(z.string().min(1)).default([]).describe("Products or services it applies to (empty: all)."),
    note: z.string().optional().describe("Free-text scope statement as printed in the document."),
  })
  .strict()
  .describe("Applicability of a document.");
export type DocumentScope = z.infer<typeof DocumentScope>;

/** YAML front matter at the top of every `sources/<domain>/docs/*.md`. */
export const DocumentFrontMatter = z
  .object({
    id: Slug.describe("Document id, stable across versions; the agent reads documents by this id."),
    title: z.string().min(3).describe("Title as printed on the document."),
    kind: DocumentKind,
    version: z.string().regex(/^\d+(\.\d+){0,2}$/, "must be a version like 3, 3.1 or 3.1.2").describe("Document version."),
    effective_from: IsoDate.describe("First day the version applies."),
    effective_to: IsoDate.nullable().default(null).describe("Last day the version applies; null while in force."),
    scope: DocumentScope.default({ segments: [], regions: [], products: [] }),
    supersedes: z
      .array(z.string().min(1))
      .default([])
      .describe("Documents this one replaces, as `id` or `id@version`; each must exist in the domain."),
  })
  .strict()
  .superRefine((fm, ctx) => {
    if (fm.effective_to !== null && fm.effective_to < fm.effective_from) {
      ctx.addIssue({ code: "custom", path: ["effective_to"], message: "effective_to is before effective_from", input: fm.effective_to });
    }
  })
  .describe("Front matter of a reference document.");
export type DocumentFrontMatter = z.infer<typeof DocumentFrontMatter>;
