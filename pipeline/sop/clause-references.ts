import { clausePrefix, clauseTokens } from "../sources/clause-id.js";

/** Clause ids a text refers to: those defined in the domain, and clause-like references to nothing. */
export interface ClauseReferences {
  known: string[];
  unknown: string[];
}

const CITATION_BEFORE = /(?:\bclauses?|\bsee|\bper|\bunder|\brules?|\bsection)\s+$/i;

function insideParentheses(text: string, index: number): boolean {
  const before = text.slice(0, index);
  return before.lastIndexOf("(") > before.lastIndexOf(")");
}

/**
 * A resolver of clause references. A clause-shaped token counts as a reference when it is a
 * defined clause id, when its prefix is that of a defined clause (`PAY-9.9` when `PAY-2.1`
 * exists), or when it is cited (in parentheses, or after `clause`, `see`, `per`, `under`, `rule`,
 * `section`). Record keys with leading zeros (`PAY-00001`) are never references; other
 * clause-shaped words (`SHA-256` in running text) are not either.
 */
export function clauseResolver(defined: ReadonlySet<string>): (text: string, self?: string) => ClauseReferences {
  const prefixes = new Set([...defined].map(clausePrefix));
  return (text: string, self?: string) => {
    const known: string[] = [];
    const unknown: string[] = [];
    for (const t of clauseTokens(text)) {
      if (t.id === self && t.index === 0) continue;
      if (defined.has(t.id)) {
        if (!known.includes(t.id)) known.push(t.id);
        continue;
      }
      const cited = prefixes.has(clausePrefix(t.id)) || insideParentheses(text, t.index) || CITATION_BEFORE.test(text.slice(Math.max(0, t.index - 12), t.index));
      if (cited && !unknown.includes(t.id)) unknown.push(t.id);
    }
    return { known, unknown };
  };
}
