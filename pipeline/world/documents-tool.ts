import type { DocumentFrontMatter } from "../schemas/index.js";
import { ToolError } from "./tool-error.js";

/**
 * The agent's knowledge base: reference documents read by id (never by path). Every version stays
 * visible, superseded and out-of-scope ones included, as in real life; the agent has to judge from
 * `effective_from`, `effective_to` and `scope` which one applies.
 */
export interface KnowledgeDocument {
  id: string;
  version: string;
  title: string;
  kind: DocumentFrontMatter["kind"];
  effective_from: string;
  effective_to: string | null;
  scope: DocumentFrontMatter["scope"];
  /** Body text after the front matter. */
  text: string;
}

/** Results returned by one search. */
export const SEARCH_LIMIT = 10;

const STOPWORDS = new Set("a an and are as at be by for from has have in is it its of on or that the this to was were will with".split(" "));

/** Lower-case search terms: words (letters, digits, `_`) and compounds such as `pay-2.1`. */
export function searchTerms(text: string): string[] {
  const lower = text.toLowerCase();
  const words = lower.match(/[\p{L}\p{N}_]+/gu) ?? [];
  const compounds = lower.match(/[\p{L}\p{N}_]+(?:[-.][\p{L}\p{N}_]+)+/gu) ?? [];
  return [...words.filter((w) => w.length >= 2 && !STOPWORDS.has(w)), ...compounds];
}

interface Indexed {
  doc: KnowledgeDocument;
  title: Map<string, number>;
  body: Map<string, number>;
  lines: string[];
}

const indexCache = new WeakMap<readonly KnowledgeDocument[], Indexed[]>();

function counts(terms: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

function index(docs: readonly KnowledgeDocument[]): Indexed[] {
  let idx = indexCache.get(docs);
  if (!idx) {
    idx = docs.map((doc) => ({ doc, title: counts(searchTerms(doc.title)), body: counts(searchTerms(doc.text)), lines: doc.text.split("\n") }));
    indexCache.set(docs, idx);
  }
  return idx;
}

function header(doc: KnowledgeDocument) {
  return { id: doc.id, version: doc.version, title: doc.title, kind: doc.kind, effective_from: doc.effective_from, effective_to: doc.effective_to, scope: doc.scope };
}

/** Every document version's header (id, version, title, kind, dates, scope), by id then effective date and version; no text. */
export function listDocuments(docs: readonly KnowledgeDocument[]) {
  const sorted = [...docs].sort((a, b) => cmp(a.id, b.id) || cmp(a.effective_from, b.effective_from) || cmp(a.version, b.version));
  return { total: sorted.length, documents: sorted.map(header) };
}

/**
 * Keyword search: each distinct query term found scores 10, plus 5 if it is in the title, plus its
 * count in the text (capped at 20). Ties go to id, then version, ascending. Deterministic.
 */
export function searchDocuments(docs: readonly KnowledgeDocument[], query: string) {
  const terms = [...new Set(searchTerms(query))];
  if (terms.length === 0) throw new ToolError("invalid_argument", "query has no searchable words", "query");
  const scored: Array<{ d: Indexed; score: number }> = [];
  for (const d of index(docs)) {
    let score = 0;
    for (const t of terms) {
      const inTitle = d.title.get(t) ?? 0;
      const inBody = d.body.get(t) ?? 0;
      if (inTitle + inBody === 0) continue;
      score += 10 + (inTitle > 0 ? 5 : 0) + Math.min(inBody, 20);
    }
    if (score > 0) scored.push({ d, score });
  }
  scored.sort((a, b) => b.score - a.score || cmp(a.d.doc.id, b.d.doc.id) || cmp(a.d.doc.version, b.d.doc.version));
  const results = scored.slice(0, SEARCH_LIMIT).map(({ d, score }) => {
    const line = d.lines.find((l) => terms.some((t) => l.toLowerCase().includes(t))) ?? "";
    return { ...header(d.doc), score, snippet: line.trim().slice(0, 200) };
  });
  return { query, total: scored.length, results };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One version of a document with the list of all its versions. Without `version`: the version in
 * force with the latest `effective_from` (no `effective_to`), else the latest one.
 */
export function readDocument(docs: readonly KnowledgeDocument[], id: string, version?: string) {
  const versions = docs.filter((d) => d.id === id).sort((a, b) => cmp(a.effective_from, b.effective_from) || cmp(a.version, b.version));
  if (versions.length === 0) throw new ToolError("not_found", `no document with id "${id}"`, "id");
  let doc: KnowledgeDocument | undefined;
  if (version !== undefined) {
    doc = versions.find((d) => d.version === version);
    if (!doc) throw new ToolError("not_found", `document "${id}" has no version "${version}"; versions: ${versions.map((d) => d.version).join(", ")}`, "version");
  } else {
    const open = versions.filter((d) => d.effective_to === null);
    doc = (open.length > 0 ? open : versions)[(open.length > 0 ? open : versions).length - 1] as KnowledgeDocument;
  }
  return {
    ...header(doc),
    text: doc.text,
    versions: versions.map((d) => ({ version: d.version, effective_from: d.effective_from, effective_to: d.effective_to })),
  };
}
