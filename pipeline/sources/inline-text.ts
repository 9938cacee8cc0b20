import type { PhrasingContent, Paragraph, TableCell as MdTableCell } from "mdast";
import type { ClauseAnchor, InlineCode } from "./outline-types.js";
import { CLAUSE_ID } from "./clause-id.js";

type Phrasing = PhrasingContent | MdTableCell;

function collect(nodes: readonly PhrasingContent[], parts: string[], codes: InlineCode[]): void {
  for (const n of nodes) {
    switch (n.type) {
      case "text":
        parts.push(n.value);
        break;
      case "inlineCode":
        parts.push(`\`${n.value}\``);
        codes.push({ value: n.value, line: n.position?.start.line ?? 0 });
        break;
      case "break":
        parts.push(" ");
        break;
      case "image":
        parts.push(n.alt ?? "");
        break;
      case "html":
        parts.push(n.value);
        break;
      case "footnoteReference":
      case "imageReference":
        break;
      default:
        // strong, emphasis, delete, link, linkReference: keep the words, drop the markup.
        if ("children" in n) collect(n.children as PhrasingContent[], parts, codes);
    }
  }
}

/** Collapse runs of whitespace (line breaks inside a paragraph included) to one space. */
export function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Plain text of phrasing content; inline code keeps its backticks so names stay recognisable. */
export function phrasingText(nodes: readonly Phrasing[] | readonly PhrasingContent[]): { text: string; codes: InlineCode[] } {
  const parts: string[] = [];
  const codes: InlineCode[] = [];
  collect(nodes as PhrasingContent[], parts, codes);
  return { text: squash(parts.join("")), codes };
}

/** Clause anchor of a paragraph whose first node is bold text holding a clause id (`**PAY-2.1**`). */
export function clauseAnchor(p: Paragraph): ClauseAnchor | null {
  const [first, ...rest] = p.children;
  if (!first || first.type !== "strong") return null;
  const raw = squash(phrasingText(first.children).text).replace(/[.:]$/, "");
  if (!CLAUSE_ID.test(raw)) return null;
  const body = phrasingText(rest).text.replace(/^[\s:.\u2013\u2014-]+/, "");
  return { id: raw, body };
}
