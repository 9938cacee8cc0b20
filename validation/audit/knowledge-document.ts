import { z } from "zod";
import { DocumentKind, DocumentScope } from "../../pipeline/schemas/index.js";

/**
 * One entry of a domain's `documents.json`: a document version as the agent's knowledge base holds
 * it (the runtime's KnowledgeDocument). Keys beyond these are kept as written, not refused, so a
 * richer knowledge base from a newer graph still exports and audits.
 */
export const KnowledgeDocumentEntry = z.looseObject({
  id: z.string().min(1).describe("Document id, stable across versions."),
  version: z.string().min(1).describe("Document version."),
  title: z.string().describe("Title as printed."),
  kind: DocumentKind,
  effective_from: z.string().describe("First day in force."),
  effective_to: z.string().nullable().describe("Last day in force; null while current."),
  scope: DocumentScope,
  text: z.string().describe("Body text after the front matter."),
});
export type KnowledgeDocumentEntry = z.infer<typeof KnowledgeDocumentEntry>;

/** `documents.json`: every document version of a domain. */
export const KnowledgeBaseFile = z.array(KnowledgeDocumentEntry);

/** `id@version`: how releases, tasks and diffs name one document version. */
export function documentKey(doc: { id: string; version: string }): string {
  return `${doc.id}@${doc.version}`;
}
