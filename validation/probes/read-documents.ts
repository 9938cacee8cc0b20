import type { SopRule, SopWorkflow } from "../../pipeline/schemas/index.js";
import { searchDocuments, type KnowledgeDocument } from "../../pipeline/world/documents-tool.js";
import { outlineText, type DocumentOutline } from "../../pipeline/sources/ingest.js";
import type { DocInput } from "../../pipeline/sop/extract-context.js";
import { extractWorkflows } from "../../pipeline/sop/extract-workflows.js";
import { extractRules } from "../../pipeline/sop/extract-rules.js";
import { clauseResolver } from "../../pipeline/sop/clause-references.js";
import { compareVersions, judgeDocumentVersions, type CustomerProfile } from "../../pipeline/sop/select-rules.js";
import type { AgentView } from "./visible-world.js";

/** How a probe picks document versions: those in force and in scope, the newest of each id, or the one a search shows first. */
export type VersionChoice = "applicable" | "newest" | "first-found";

/**
 * The versions a probe follows. `applicable`: judged from each version's dates and scope (what
 * read_document shows) for the task's date and the customer's attributes. `newest`: the version
 * with the latest `effective_from` (then highest version) of every id, whatever its scope or date.
 */
export function chooseVersions(docs: readonly KnowledgeDocument[], choice: VersionChoice, date: string, customer: CustomerProfile): KnowledgeDocument[] {
  if (choice === "first-found") {
    // search_documents with the document's title; the first result of that id is followed (ties
    // go to the lower version, so a superseded version the search ranks first is the one read).
    const first = new Map<string, KnowledgeDocument>();
    for (const d of docs) {
      if (first.has(d.id)) continue;
      const hit = searchDocuments(docs, d.title).results.find((r) => r.id === d.id);
      const pick = docs.find((x) => x.id === d.id && x.version === hit?.version) ?? d;
      first.set(d.id, pick);
    }
    return docs.filter((d) => first.get(d.id) === d);
  }
  if (choice === "newest") {
    const best = new Map<string, KnowledgeDocument>();
    for (const d of docs) {
      const b = best.get(d.id);
      if (!b || d.effective_from > b.effective_from || (d.effective_from === b.effective_from && compareVersions(d.version, b.version) > 0)) best.set(d.id, d);
    }
    return docs.filter((d) => best.get(d.id) === d);
  }
  // read_document shows no `supersedes`: the judgement rests on dates, scope and version order.
  const verdicts = judgeDocumentVersions(docs.map((d) => ({ ...d, supersedes: [] })), { date, customer });
  return docs.filter((_, i) => verdicts[i]?.status === "current");
}

/** Procedures and rule clauses a probe extracts from the text of the versions it follows. */
export interface ReadSop {
  workflows: SopWorkflow[];
  rules: SopRule[];
}

/**
 * Outlines of the document texts probes read, by text. Every probe of every task reads the same
 * few documents of its domain again: parsing them each time (remark) was a third of a build from
 * scratch (bench/build.ts, BENCHMARKS.md). Outlines are read-only to the extractor (the ingest
 * cache shares them the same way); the map is emptied when it grows past a few domains' documents.
 */
const outlines = new Map<string, DocumentOutline>();
const OUTLINES_MAX = 512;

function outlineOf(text: string): DocumentOutline {
  let o = outlines.get(text);
  if (!o) {
    if (outlines.size >= OUTLINES_MAX) outlines.clear();
    o = outlineText(text);
    outlines.set(text, o);
  }
  return o;
}

/** Run the SOP extractor on visible document text only (the body an agent reads), with the visible world index. */
export function readSop(docs: readonly KnowledgeDocument[], view: AgentView): ReadSop {
  const inputs: DocInput[] = docs.map((d) => ({
    file: `${d.id}@${d.version}`,
    meta: { id: d.id, title: d.title, kind: d.kind, version: d.version, effective_from: d.effective_from, effective_to: d.effective_to, scope: d.scope, supersedes: [] },
    text: d.text,
    outline: outlineOf(d.text),
    status: "current",
  }));
  const refs = clauseResolver(new Set(inputs.flatMap((i) => i.outline.anchors.map((a) => a.id))));
  const workflows: SopWorkflow[] = [];
  const rules: SopRule[] = [];
  for (const input of inputs) {
    workflows.push(...extractWorkflows(input, view.index, refs).workflows);
    rules.push(...extractRules(input, view.index).rules);
  }
  return { workflows, rules };
}
