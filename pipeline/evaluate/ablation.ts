import type { Task } from "../schemas/index.js";
import type { KnowledgeDocument } from "../world/documents-tool.js";
import { documentKey } from "../../validation/audit/knowledge-document.js";

/** What an ablation changes about what the agent is given; the task and its checks never change. */
export type Ablation = "none" | "gold-docs" | "full-disclosure";

/** The opening request under an ablation: with full-disclosure, every private fact's statement follows it, and the facts count as disclosed. */
export function openingFor(task: Task, ablation: Ablation): { text: string; facts: string[] } {
  if (ablation !== "full-disclosure" || task.scenario.private_facts.length === 0) return { text: task.scenario.opening_request, facts: [] };
  const facts = task.scenario.private_facts;
  return { text: `${task.scenario.opening_request} ${facts.map((f) => f.statement).join(" ")}`, facts: facts.map((f) => f.id) };
}

/** The documents given up front: with gold-docs, the task's relevant (in-force) versions; otherwise none. */
export function givenDocuments(task: Task, documents: readonly KnowledgeDocument[], ablation: Ablation): KnowledgeDocument[] {
  if (ablation !== "gold-docs") return [];
  const keys = new Set(task.documents.relevant);
  return documents.filter((d) => keys.has(documentKey(d)) || keys.has(d.id));
}
