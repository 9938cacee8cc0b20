import type { SopProblem, SopRule } from "../schemas/sop.js";
import type { Block, ClauseAnchor, InlineCode, LineRange } from "../sources/outline-types.js";
import { blocksCodes, blocksText } from "./block-text.js";
import { prerequisiteSentences, splitExceptions } from "./clause-text.js";
import { classifyName, type DocInput } from "./extract-context.js";
import { problem } from "./problems.js";
import type { WorldIndex } from "./world-index.js";

interface AnchoredText extends LineRange {
  clause: ClauseAnchor;
  codes: InlineCode[];
  nested: Block[];
}

function anchored(blocks: readonly Block[], out: AnchoredText[]): void {
  for (const b of blocks) {
    if (b.type === "paragraph" && b.clause) out.push({ clause: b.clause, codes: b.codes, nested: [], line_start: b.line_start, line_end: b.line_end });
    else if (b.type === "list") {
      for (const it of b.items) {
        if (it.clause) out.push({ clause: it.clause, codes: it.codes, nested: it.blocks, line_start: it.line_start, line_end: it.line_end });
        anchored(it.blocks, out);
      }
    } else if (b.type === "quote") anchored(b.blocks, out);
  }
}

function exceptionsOf(a: AnchoredText, split: { exceptions: string[] | null }): string[] {
  const out: string[] = [...(split.exceptions ?? [])];
  // With a marker, the items of a nested list are the exceptions ("Exceptions:" followed by a list).
  if (split.exceptions !== null) {
    for (const b of a.nested) if (b.type === "list") for (const it of b.items) out.push([it.text, blocksText(it.blocks)].filter((s) => s).join(" ").replace(/\s*[;,]\s*(?:and|or)?$/, ""));
  }
  return out;
}

/**
 * Rules of one document version: every paragraph or list item that starts with a bold clause id.
 * A clause id defined twice in the version is an error (`SOP_DUPLICATE_ANCHOR`); the first stands.
 */
export function extractRules(doc: DocInput, world: WorldIndex | null): { rules: SopRule[]; problems: SopProblem[] } {
  const found: AnchoredText[] = [];
  for (const s of doc.outline.sections) anchored(s.blocks, found);
  found.sort((a, b) => a.line_start - b.line_start);
  const rules: SopRule[] = [];
  const problems: SopProblem[] = [];
  const firstLine = new Map<string, number>();
  const site = (line: number) => ({ document: doc.meta.id, file: doc.file, line });
  for (const a of found) {
    const prev = firstLine.get(a.clause.id);
    if (prev !== undefined) {
      problems.push(problem("SOP_DUPLICATE_ANCHOR", `clause ${a.clause.id} is defined twice in ${doc.meta.id}@${doc.meta.version} (first on line ${prev})`, site(a.line_start), "error"));
      continue;
    }
    firstLine.set(a.clause.id, a.line_start);
    const nestedText = blocksText(a.nested);
    const split = splitExceptions(a.clause.body);
    const statement = [a.clause.body, nestedText].filter((s) => s !== "").join(" ");
    if (statement === "") {
      problems.push(problem("SOP_EMPTY_CLAUSE", `clause ${a.clause.id} has no text after its id`, site(a.line_start), "review"));
      continue;
    }
    const action = split.exceptions === null ? statement : split.main;
    const codes = [...a.codes, ...blocksCodes(a.nested)];
    const affected = new Set<string>();
    const unknown = new Map<string, number>();
    for (const c of codes) {
      const kind = classifyName(c.value, world);
      if (kind === "operation" || kind === "table") affected.add(c.value);
      else if (kind === "unknown_operation" && !unknown.has(c.value)) unknown.set(c.value, c.line);
    }
    for (const [name, line] of unknown) {
      problems.push(problem("SOP_UNKNOWN_OBJECT", `clause ${a.clause.id} names \`${name}\`, which is neither an operation nor a table of world.yaml`, site(line), "review"));
    }
    rules.push({
      id: a.clause.id,
      statement,
      document: doc.meta.id,
      version: doc.meta.version,
      effective_from: doc.meta.effective_from,
      effective_to: doc.meta.effective_to,
      scope: doc.meta.scope,
      affected_objects: [...affected].sort(),
      prerequisites: prerequisiteSentences(action),
      action: action === "" ? statement : action,
      exceptions: exceptionsOf(a, split),
      formal_rule: null,
      status: doc.status,
      provenance: { document: doc.meta.id, version: doc.meta.version, line_start: a.line_start, line_end: a.line_end, clause: a.clause.id },
    });
  }
  return { rules, problems };
}
