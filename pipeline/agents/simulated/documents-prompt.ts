import type { KnowledgeDocument } from "../../world/documents-tool.js";

/** The document versions in force on `asOf`. */
export function documentsInForce(documents: readonly KnowledgeDocument[], asOf: string): KnowledgeDocument[] {
  return documents.filter((d) => d.effective_from <= asOf && (d.effective_to === null || asOf <= d.effective_to));
}

/** Documents as a model reads them in a prompt: id, version, kind, title, then the text. */
export function documentsText(documents: readonly KnowledgeDocument[]): string {
  return `Documents:\n${documents.map((d) => `--- ${d.id} v${d.version} (${d.kind}): ${d.title}\n${d.text}`).join("\n\n")}`;
}
