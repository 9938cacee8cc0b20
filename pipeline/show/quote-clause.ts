import type { Provenance } from "../schemas/index.js";
import type { QuotedClause } from "./task-view.js";

/** A provenance record with its lines quoted from the document version (null text when absent). */
export function quoteClause(lines: ReadonlyMap<string, readonly string[]>, p: Provenance): QuotedClause {
  const doc = lines.get(`${p.document}@${p.version}`);
  const slice = doc && p.line_end <= doc.length ? doc.slice(p.line_start - 1, p.line_end) : null;
  return { document: p.document, version: p.version, line_start: p.line_start, line_end: p.line_end, clause: p.clause ?? null, text: slice ? slice.join("\n") : null };
}
