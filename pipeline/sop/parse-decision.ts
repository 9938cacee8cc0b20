/** Where an outcome sends the workflow. `next`: nothing said, so on to the following step. */
export type OutcomeTarget = { kind: "goto"; step: number } | { kind: "return"; step: number } | { kind: "end" } | { kind: "next" };

const TARGETS: Array<[RegExp, (m: RegExpExecArray) => OutcomeTarget]> = [
  [/\breturn\s+to\s+step\s+(\d+)/gi, (m) => ({ kind: "return", step: Number(m[1]) })],
  [/\b(?:go|proceed|skip|jump|move)\s+(?:directly\s+|straight\s+)?(?:on\s+)?to\s+step\s+(\d+)/gi, (m) => ({ kind: "goto", step: Number(m[1]) })],
  [/\b(?:continue|resume)\s+(?:with|at|from)\s+step\s+(\d+)/gi, (m) => ({ kind: "goto", step: Number(m[1]) })],
  // "stop", "stop:", "stop and …", "stop here", "stop the procedure" end the workflow; "stop the payment" does not.
  [/\bstop(?=\s*(?:[.;:,]|$)|\s+(?:and|here|the\s+(?:procedure|workflow|process))\b)/gi, () => ({ kind: "end" })],
  // Handing over to another procedure ends this one.
  [/\b(?:go|proceed|move)\s+(?:on\s+)?to\s+(?:the\s+)?procedure\b/gi, () => ({ kind: "end" })],
  [/\bend\s+(?:the\s+)?(?:procedure|workflow|process)\b/gi, () => ({ kind: "end" })],
  [/\b(?:the\s+)?(?:procedure|workflow|process)\s+ends\b/gi, () => ({ kind: "end" })],
];

/**
 * The target of an outcome as written: `go to step N`/`continue with step N` (goto),
 * `return to step N` (return), `stop`/`end the procedure` (end), else `next`. `ambiguous` when
 * the text names several different targets; `unclear` when it mentions a step number in a way
 * none of these phrases covers.
 */
export function outcomeTarget(text: string): { target: OutcomeTarget; ambiguous: boolean; unclear: boolean } {
  const found: Array<{ at: number; target: OutcomeTarget }> = [];
  for (const [re, make] of TARGETS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) found.push({ at: m.index, target: make(m) });
  }
  found.sort((a, b) => a.at - b.at);
  const distinct = new Set(found.map((f) => JSON.stringify(f.target)));
  const first = found[0];
  if (!first) return { target: { kind: "next" }, ambiguous: false, unclear: /\bsteps?\s+\d+/i.test(text) };
  return { target: first.target, ambiguous: distinct.size > 1, unclear: false };
}

/** Drop one trailing full stop and surrounding space. */
function clean(s: string): string {
  return s.trim().replace(/\.$/, "").trim();
}

/**
 * Split an `If …, then …; otherwise …` item. Returns null when the item has no `then` (the
 * extractor reports it); `otherwise` is null when the item has no else branch.
 */
export function parseIfItem(text: string): { condition: string; then: string; otherwise: string | null } | null {
  const body = text.replace(/^if\s+/i, "");
  const sep = /,\s*then\b\s*/i.exec(body) ?? /\s+then\s+/i.exec(body);
  if (!sep) return null;
  const condition = clean(body.slice(0, sep.index));
  const rest = body.slice(sep.index + sep[0].length);
  const other = /;\s*otherwise\b,?\s*/i.exec(rest) ?? /\.\s+Otherwise\b,?\s*/.exec(rest);
  if (!other) return { condition, then: clean(rest), otherwise: null };
  return { condition, then: clean(rest.slice(0, other.index)), otherwise: clean(rest.slice(other.index + other[0].length)) };
}
