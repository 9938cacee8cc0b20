/**
 * The ingested form of a Markdown document: a heading tree whose sections hold simplified blocks
 * (paragraphs, lists, tables) with their text, inline code names, clause anchors and FILE line
 * ranges. Plain JSON, so it can be cached on disk and passed between worker threads.
 */

/** Bump when the outline's shape or meaning changes (extractor code or a remark upgrade): cached outlines of another format are ignored. */
export const OUTLINE_FORMAT = 1;

/** 1-based file lines, both included. */
export interface LineRange {
  line_start: number;
  line_end: number;
}

/** A name written in inline code (`release_payment`) and the line it is on. */
export interface InlineCode {
  value: string;
  line: number;
}

/** Text of a paragraph-like node: inline code kept in backticks, emphasis markers dropped, whitespace collapsed. */
export interface TextSpan extends LineRange {
  text: string;
  codes: InlineCode[];
}

/** A paragraph or list item that starts with a bold clause id (`**PAY-2.1** …`). */
export interface ClauseAnchor {
  /** Clause id without trailing punctuation. */
  id: string;
  /** Text after the clause id, leading separators removed. */
  body: string;
}

export interface ParagraphBlock extends TextSpan {
  type: "paragraph";
  clause: ClauseAnchor | null;
}

export interface ListItemBlock extends TextSpan {
  /** Number as printed (ordered lists), else null. */
  number: number | null;
  /** Clause anchor of the item's first paragraph. */
  clause: ClauseAnchor | null;
  /** Everything in the item after its paragraphs: nested lists, tables, code, quotes. */
  blocks: Block[];
}

export interface ListBlock extends LineRange {
  type: "list";
  ordered: boolean;
  items: ListItemBlock[];
}

export interface TableCell {
  text: string;
  codes: InlineCode[];
}

export interface TableRow {
  line: number;
  cells: TableCell[];
}

export interface TableBlock extends LineRange {
  type: "table";
  header: TableCell[];
  rows: TableRow[];
}

export interface QuoteBlock extends LineRange {
  type: "quote";
  blocks: Block[];
}

/** Code blocks, HTML, thematic breaks and other nodes the extractor does not read. */
export interface OtherBlock extends LineRange {
  type: "other";
  node: string;
}

export type Block = ParagraphBlock | ListBlock | TableBlock | QuoteBlock | OtherBlock;

export interface Section extends LineRange {
  /** Position in `sections`. */
  index: number;
  /** Heading depth 1–6; 0 for the text before the first heading. */
  depth: number;
  /** Heading text without a trailing `{#id}`. */
  title: string;
  /** Explicit id from a trailing `{#id}`, `""` for an empty `{#}`, null when the heading has none. */
  anchor: string | null;
  /** Index of the enclosing section, null for top-level sections. */
  parent: number | null;
  /** Blocks directly under the heading (not those of subsections). */
  blocks: Block[];
}

/** Where a rule clause is anchored. */
export interface AnchorRef extends LineRange {
  id: string;
  section: number;
}

export interface DocumentOutline {
  format: number;
  /** Sections in document order; `sections[0]` is the text before the first heading. */
  sections: Section[];
  /** Every clause anchor, in document order (duplicates included: the extractor reports them). */
  anchors: AnchorRef[];
  /** Number of lines in the file. */
  line_count: number;
}
