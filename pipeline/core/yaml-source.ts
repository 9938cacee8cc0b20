import { parseDocument, LineCounter, isNode, type Document } from "yaml";
import type { FoundryIssue } from "./errors.js";

/** A parsed YAML text that can tell the line of any field path (for error messages). */
export interface YamlSource {
  data: unknown;
  /** 1-based line of the node at `path` (or of its nearest existing parent); undefined if unknown. */
  lineOf(path: ReadonlyArray<PropertyKey>): number | undefined;
}

/**
 * Parse YAML keeping positions. `lineOffset` is added to every line (front matter starts below `---`).
 * Syntax errors come back as issues with their line, never as exceptions.
 */
export function parseYaml(text: string, file: string, lineOffset = 0): { source?: YamlSource; issues: FoundryIssue[] } {
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (e) {
    return { issues: [{ code: "YAML_SYNTAX", message: (e as Error).message, file }] };
  }
  const issues: FoundryIssue[] = doc.errors.map((err) => {
    const pos = err.pos?.[0];
    const line = pos !== undefined ? lineCounter.linePos(pos).line + lineOffset : undefined;
    const message = err.message.split("\n")[0] ?? err.message;
    return { code: "YAML_SYNTAX", message, file, ...(line !== undefined ? { line } : {}) };
  });
  if (issues.length > 0) return { issues };
  const lineOf = (path: ReadonlyArray<PropertyKey>): number | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
      if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line + lineOffset;
      // For a missing key, the parent mapping's line is the best place to point at.
    }
    return undefined;
  };
  return { source: { data: doc.toJS({ maxAliasCount: 100 }), lineOf }, issues: [] };
}
