import type { Root, RootContent, List, Table, Heading, Paragraph } from "mdast";
import { clauseAnchor, phrasingText } from "./inline-text.js";
import {
  OUTLINE_FORMAT,
  type AnchorRef,
  type Block,
  type DocumentOutline,
  type ListBlock,
  type ListItemBlock,
  type ParagraphBlock,
  type Section,
  type TableBlock,
} from "./outline-types.js";

const TRAILING_ANCHOR = /\s*\{#([^}]*)\}\s*$/;

function lines(node: { position?: { start: { line: number }; end: { line: number } } }): { line_start: number; line_end: number } {
  return { line_start: node.position?.start.line ?? 1, line_end: node.position?.end.line ?? node.position?.start.line ?? 1 };
}

function paragraphBlock(p: Paragraph): ParagraphBlock {
  const { text, codes } = phrasingText(p.children);
  return { type: "paragraph", text, codes, clause: clauseAnchor(p), ...lines(p) };
}

function listBlock(list: List): ListBlock {
  const start = list.start ?? 1;
  const items = list.children.map((item, i): ListItemBlock => {
    const texts: string[] = [];
    const codes: ListItemBlock["codes"] = [];
    const blocks: Block[] = [];
    let clause: ListItemBlock["clause"] = null;
    let sawParagraph = false;
    for (const child of item.children) {
      if (child.type === "paragraph" && blocks.length === 0) {
        const p = paragraphBlock(child);
        if (!sawParagraph) clause = p.clause;
        sawParagraph = true;
        texts.push(p.text);
        codes.push(...p.codes);
      } else {
        const b = block(child);
        if (b) blocks.push(b);
      }
    }
    // A clause runs to the end of its item: later paragraphs belong to its body.
    if (clause && texts.length > 1) clause = { id: clause.id, body: [clause.body, ...texts.slice(1)].join(" ") };
    return { number: list.ordered ? start + i : null, text: texts.join(" "), codes, clause, blocks, ...lines(item) };
  });
  return { type: "list", ordered: list.ordered === true, items, ...lines(list) };
}

function tableBlock(t: Table): TableBlock {
  const [head, ...body] = t.children;
  const cells = (row: Table["children"][number]) => row.children.map((c) => phrasingText(c.children));
  return {
    type: "table",
    header: head ? cells(head) : [],
    rows: body.map((r) => ({ line: r.position?.start.line ?? 1, cells: cells(r) })),
    ...lines(t),
  };
}

function block(node: RootContent): Block | null {
  switch (node.type) {
    case "paragraph":
      return paragraphBlock(node);
    case "list":
      return listBlock(node);
    case "table":
      return tableBlock(node);
    case "blockquote":
      return { type: "quote", blocks: node.children.map(block).filter((b): b is Block => b !== null), ...lines(node) };
    case "yaml":
      return null;
    default:
      return { type: "other", node: node.type, ...lines(node) };
  }
}

function headingSection(h: Heading, index: number, parent: number | null): Section {
  const { text } = phrasingText(h.children);
  const m = TRAILING_ANCHOR.exec(text);
  return {
    index,
    depth: h.depth,
    title: m ? text.slice(0, m.index).trim() : text,
    anchor: m ? (m[1] ?? "").trim() : null,
    parent,
    blocks: [],
    ...lines(h),
  };
}

/** Anchors of a block list, depth first, in document order. */
function collectAnchors(blocks: readonly Block[], section: number, out: AnchorRef[]): void {
  for (const b of blocks) {
    if (b.type === "paragraph" && b.clause) out.push({ id: b.clause.id, section, line_start: b.line_start, line_end: b.line_end });
    else if (b.type === "list") {
      for (const it of b.items) {
        if (it.clause) out.push({ id: it.clause.id, section, line_start: it.line_start, line_end: it.line_end });
        collectAnchors(it.blocks, section, out);
      }
    } else if (b.type === "quote") collectAnchors(b.blocks, section, out);
  }
}

/** Turn a parsed Markdown tree into the outline the extractors read (positions are file lines). */
export function outlineFromTree(tree: Root, lineCount: number): DocumentOutline {
  const front = tree.children.find((n) => n.type === "yaml");
  const bodyStart = front?.position ? front.position.end.line + 1 : 1;
  const sections: Section[] = [{ index: 0, depth: 0, title: "", anchor: null, parent: null, blocks: [], line_start: Math.min(bodyStart, Math.max(lineCount, 1)), line_end: Math.min(bodyStart, Math.max(lineCount, 1)) }];
  const stack: Section[] = [];
  for (const node of tree.children) {
    if (node.type === "heading") {
      while (stack.length > 0 && (stack[stack.length - 1] as Section).depth >= node.depth) stack.pop();
      const parent = stack.length > 0 ? (stack[stack.length - 1] as Section).index : null;
      const s = headingSection(node, sections.length, parent);
      sections.push(s);
      stack.push(s);
      continue;
    }
    const b = block(node);
    if (b) (stack.length > 0 ? (stack[stack.length - 1] as Section) : (sections[0] as Section)).blocks.push(b);
  }
  // A section ends at its last line of content, its subsections included.
  for (let i = sections.length - 1; i >= 0; i--) {
    const s = sections[i] as Section;
    for (const b of s.blocks) s.line_end = Math.max(s.line_end, b.line_end);
    if (s.parent !== null) {
      const p = sections[s.parent] as Section;
      p.line_end = Math.max(p.line_end, s.line_end);
    }
  }
  const anchors: AnchorRef[] = [];
  for (const s of sections) collectAnchors(s.blocks, s.index, anchors);
  anchors.sort((a, b) => a.line_start - b.line_start);
  return { format: OUTLINE_FORMAT, sections, anchors, line_count: lineCount };
}
