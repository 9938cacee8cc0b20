/**
 * Clause ids as the domain format defines them: groups of capital letters and digits joined by `-`
 * (the first starting with a letter), then a number with optional `.` sub-numbers:
 * `PAY-2.1`, `ED-TRI-4`, `CUS-7.3.2`.
 */
export const CLAUSE_ID = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+(?:\.\d+)*$/;

/** Clause-shaped tokens inside running text (global; use with matchAll). */
const CLAUSE_TOKEN = /(?<![A-Za-z0-9_.-])([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-(\d+)(?:\.\d+)*)(?![A-Za-z0-9_-]|\.\d)/g;

/** True when `s` is a clause id. */
export function isClauseId(s: string): boolean {
  return CLAUSE_ID.test(s);
}

/** The part of a clause id before its number: `PAY` for `PAY-2.1`, `ED-TRI` for `ED-TRI-4`. */
export function clausePrefix(id: string): string {
  return id.replace(/-\d+(?:\.\d+)*$/, "");
}

/** A clause-shaped token found in text, with its character offset. */
export interface ClauseToken {
  id: string;
  index: number;
}

/**
 * Clause-shaped tokens in `text`. Tokens whose main number has a leading zero (`PAY-00001`,
 * `CL-001`) are record keys, not clauses, and are left out.
 */
export function clauseTokens(text: string): ClauseToken[] {
  const out: ClauseToken[] = [];
  for (const m of text.matchAll(CLAUSE_TOKEN)) {
    const main = m[2] ?? "";
    if (main.length > 1 && main.startsWith("0")) continue;
    out.push({ id: m[1] as string, index: m.index ?? 0 });
  }
  return out;
}

/** A clause definition: a paragraph or list item starting with the bold clause id (`- **PAY-2.1** …`). */
const DEFINITION = /^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\s]+)\*\*/;

/**
 * The clauses a Markdown text defines, as the domain format writes them (a bold clause id opening a
 * paragraph or list item), with their 1-based line in `text`. What a rubric criterion may cite.
 */
export function definedClauses(text: string): Array<{ id: string; line: number }> {
  const out: Array<{ id: string; line: number }> = [];
  text.split("\n").forEach((l, i) => {
    const m = DEFINITION.exec(l);
    if (m && isClauseId(m[1] as string)) out.push({ id: m[1] as string, line: i + 1 });
  });
  return out;
}
