import { unified } from "unified";
import remarkParse from "remark-parse";
import remarkFrontmatter from "remark-frontmatter";
import remarkGfm from "remark-gfm";
import type { Root } from "mdast";

/**
 * The one Markdown processor of the foundry: CommonMark + YAML front matter + GFM tables. The
 * whole file is parsed (front matter included) so every position is a line of the file itself.
 */
export function createMarkdownParser(): { parse(text: string): Root } {
  const processor = unified().use(remarkParse).use(remarkFrontmatter, ["yaml"]).use(remarkGfm).freeze();
  return { parse: (text: string) => processor.parse(text) as Root };
}
