import { createMarkdownParser } from "./markdown-parser.js";
import { outlineFromTree } from "./markdown-outline.js";
import type { DocumentOutline } from "./outline-types.js";

/** Lines in a text (a final newline does not start another line). */
export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** A reusable outliner: parse one Markdown file (front matter included) into its outline. */
export function createOutliner(): (text: string) => DocumentOutline {
  const parser = createMarkdownParser();
  return (text: string) => outlineFromTree(parser.parse(text), countLines(text));
}
