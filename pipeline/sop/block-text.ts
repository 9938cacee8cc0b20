import type { Block, InlineCode } from "../sources/outline-types.js";

/** Text of nested blocks, as one line: list items joined by `; `, table rows by ` | ` cells. */
export function blocksText(blocks: readonly Block[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    if (b.type === "paragraph") parts.push(b.text);
    else if (b.type === "list") parts.push(b.items.map((it) => [it.text, blocksText(it.blocks)].filter((s) => s !== "").join(" ")).join("; "));
    else if (b.type === "table") parts.push([b.header, ...b.rows.map((r) => r.cells)].map((cells) => cells.map((c) => c.text).join(" | ")).join("; "));
    else if (b.type === "quote") parts.push(blocksText(b.blocks));
  }
  return parts.filter((s) => s !== "").join(" ");
}

/** Inline code names in nested blocks, in document order. */
export function blocksCodes(blocks: readonly Block[]): InlineCode[] {
  const out: InlineCode[] = [];
  for (const b of blocks) {
    if (b.type === "paragraph") out.push(...b.codes);
    else if (b.type === "list") for (const it of b.items) out.push(...it.codes, ...blocksCodes(it.blocks));
    else if (b.type === "table") for (const cells of [b.header, ...b.rows.map((r) => r.cells)]) for (const c of cells) out.push(...c.codes);
    else if (b.type === "quote") out.push(...blocksCodes(b.blocks));
  }
  return out;
}

/** Call `fn` for every text of a document's blocks (paragraphs, list items, table cells) with its line and own clause id. */
export function eachText(sections: ReadonlyArray<{ blocks: readonly Block[] }>, fn: (text: string, line: number, self?: string) => void): void {
  const walk = (blocks: readonly Block[]) => {
    for (const b of blocks) {
      if (b.type === "paragraph") fn(b.text, b.line_start, b.clause?.id);
      else if (b.type === "list") {
        for (const it of b.items) {
          fn(it.text, it.line_start, it.clause?.id);
          walk(it.blocks);
        }
      } else if (b.type === "table") {
        for (const c of b.header) fn(c.text, b.line_start);
        for (const r of b.rows) for (const c of r.cells) fn(c.text, r.line);
      } else if (b.type === "quote") walk(b.blocks);
    }
  };
  for (const s of sections) walk(s.blocks);
}
