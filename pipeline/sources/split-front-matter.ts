/** A document's YAML front matter and body, with the line the body starts on. */
export interface SplitDocument {
  /** YAML text between the `---` fences, or null when the document has none. */
  frontMatter: string | null;
  /** Line (1-based) of the first front-matter line, i.e. the line after the opening `---`. */
  frontMatterLine: number;
  body: string;
  /** Line (1-based) of the first body line. */
  bodyLine: number;
  /** True when an opening fence has no closing fence. */
  unterminated: boolean;
}

/** Split `---\n…\n---\n` front matter from a Markdown text (the same rule remark-frontmatter uses). */
export function splitFrontMatter(text: string): SplitDocument {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { frontMatter: null, frontMatterLine: 0, body: text, bodyLine: 1, unterminated: false };
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (close < 0) return { frontMatter: null, frontMatterLine: 2, body: "", bodyLine: lines.length + 1, unterminated: true };
  return {
    frontMatter: lines.slice(1, close).join("\n"),
    frontMatterLine: 2,
    body: lines.slice(close + 1).join("\n"),
    bodyLine: close + 2,
    unterminated: false,
  };
}
