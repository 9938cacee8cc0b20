import type { Trace, TraceEvent } from "../../pipeline/schemas/index.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { readDocument, type KnowledgeDocument } from "../../pipeline/world/documents-tool.js";
import { documentKey } from "./knowledge-document.js";

/**
 * A release stores each trace's `read_document` answers by reference: the answer is the document
 * version of the release's knowledge base (documents.json) with the list of its versions, the same
 * bytes every time the document is read, and it was most of a release's size (a violation trace
 * repeats the golden trace's reads). In a release file the result of such a call is
 * `{"$document": "<id>@<version>"}`; reading the file puts the answer back, exactly
 * (`readDocument` over the release's documents). A result is stored by reference only when
 * putting it back gives the same canonical JSON, so the reference loses nothing: a degraded,
 * failed or otherwise different answer is stored as it was.
 */
export const DOCUMENT_REF = "$document";

const isRef = (v: unknown): v is { [DOCUMENT_REF]: string } =>
  v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && typeof (v as Record<string, unknown>)[DOCUMENT_REF] === "string";

const isRead = (e: TraceEvent): boolean => e.kind === "tool_call" && e.name === "read_document";

/** The answers of one knowledge base, by `id@version`, as canonical JSON (built once per knowledge base). */
const answers = new WeakMap<readonly KnowledgeDocument[], Map<string, { value: ReturnType<typeof readDocument>; canonical: string }>>();

function answerOf(docs: readonly KnowledgeDocument[], key: string) {
  let byKey = answers.get(docs);
  if (!byKey) {
    byKey = new Map();
    answers.set(docs, byKey);
  }
  let known = byKey.get(key);
  if (!known) {
    const doc = docs.find((d) => documentKey(d) === key);
    if (!doc) return null;
    // Frozen: every expanded trace shares this one answer (10,000 tasks read the same documents).
    const value = deepFreeze(readDocument(docs, doc.id, doc.version));
    known = { value, canonical: canonicalJson(value) };
    byKey.set(key, known);
  }
  return known;
}

/** The trace as a release stores it: every read_document answer that is exactly a document version of `docs` replaced by its reference. */
export function compactTrace(trace: Trace, docs: readonly KnowledgeDocument[]): Trace {
  let changed = false;
  const events = trace.events.map((e) => {
    if (!isRead(e) || e.result === null || typeof e.result !== "object" || Array.isArray(e.result)) return e;
    const r = e.result as Record<string, unknown>;
    if (typeof r.id !== "string" || typeof r.version !== "string") return e;
    const key = documentKey({ id: r.id, version: r.version });
    const known = answerOf(docs, key);
    if (!known || known.canonical !== canonicalJson(r)) return e;
    changed = true;
    return { ...e, result: { [DOCUMENT_REF]: key } };
  });
  return changed ? { ...trace, events } : trace;
}

/**
 * The trace a release file holds, with every document reference put back (compactTrace's inverse).
 * A reference to a document version the knowledge base does not hold is returned as an error message.
 */
export function expandTrace(trace: Trace, docs: readonly KnowledgeDocument[]): Trace | string {
  let changed = false;
  const events: TraceEvent[] = [];
  for (const e of trace.events) {
    if (!isRead(e) || !isRef(e.result)) {
      events.push(e);
      continue;
    }
    const key = e.result[DOCUMENT_REF];
    const known = answerOf(docs, key);
    if (!known) return `event ${e.index} reads ${key}, which the release's knowledge base (documents.json) does not hold`;
    changed = true;
    events.push({ ...e, result: known.value });
  }
  return changed ? { ...trace, events } : trace;
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object") {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}
