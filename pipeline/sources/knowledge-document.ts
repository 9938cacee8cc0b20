import type { KnowledgeDocument } from "../world/documents-tool.js";
import type { SourceDocument } from "./load-domain.js";

/** A loaded document version as the agent's knowledge base holds it (front matter fields and body text). */
export function knowledgeDocument(d: SourceDocument): KnowledgeDocument {
  const { id, version, title, kind, effective_from, effective_to, scope } = d.meta;
  return { id, version, title, kind, effective_from, effective_to, scope, text: d.body };
}
