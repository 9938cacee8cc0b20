import { parseDocument, LineCounter, isAlias, isNode, visit, type Document } from "yaml";
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
  const data = yamlData(doc, lineCounter, file, lineOffset);
  if ("issue" in data) return { issues: [data.issue] };
  return { source: { data: data.value, lineOf }, issues: [] };
}

/**
 * Most nodes aliases may expand to in one YAML text. A few hundred bytes of nested aliases can
 * otherwise expand to billions of nodes (the "billion laughs" attack) and exhaust memory.
 */
export const MAX_ALIAS_COUNT = 100;

/**
 * The plain value of a parsed YAML document. An alias expansion over `MAX_ALIAS_COUNT` comes
 * back as a `YAML_ALIAS_LIMIT` issue at the line of the alias that crossed the limit, never as
 * an exception, so one bad file never hides the others.
 */
export function yamlData(doc: Document, lineCounter: LineCounter, file: string, lineOffset = 0): { value: unknown } | { issue: FoundryIssue } {
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (e) {
    if (!(e instanceof ReferenceError) || !/alias/i.test(e.message)) throw e;
    const at = aliasOverLimit(doc);
    const line = at !== undefined ? lineCounter.linePos(at).line + lineOffset : undefined;
    const message = /Excessive alias count/.test(e.message)
      ? `aliases expand to more than ${MAX_ALIAS_COUNT} nodes (an alias bomb?); write the values out instead`
      : (e.message.split("\n")[0] ?? e.message);
    return { issue: { code: "YAML_ALIAS_LIMIT", message, file, ...(line !== undefined ? { line } : {}) } };
  }
}

/** Offset of the first alias at which the nodes expanded so far pass the limit (or of the first alias). */
function aliasOverLimit(doc: Document): number | undefined {
  // Size of an anchored node once its own aliases are expanded, computed on the syntax tree only.
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown): number => {
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return target === undefined ? 1 : (sizes.get(target) ?? sizeOf(target));
    }
    let n = 1;
    if (node !== null && typeof node === "object" && "items" in node && Array.isArray((node as { items: unknown[] }).items)) {
      for (const item of (node as { items: unknown[] }).items) {
        if (item !== null && typeof item === "object" && "key" in item && "value" in item) n += sizeOf((item as { key: unknown }).key) + sizeOf((item as { value: unknown }).value);
        else n += sizeOf(item);
      }
    }
    if (isNode(node) && node.anchor) sizes.set(node, n);
    return n;
  };
  let expanded = 0;
  let first: number | undefined;
  let over: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      const start = node.range?.[0];
      first ??= start;
      expanded += sizeOf(node);
      if (expanded > MAX_ALIAS_COUNT && over === undefined) {
        over = start;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return over ?? first;
}
