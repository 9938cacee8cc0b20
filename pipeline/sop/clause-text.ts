/** Sentences of a clause (split after `.`, `!` or `?` followed by a capital letter or an opening bracket). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z(“"])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Sentences that state a prerequisite: they start with `Before`, `Only after` or `Only when`. */
export function prerequisiteSentences(text: string): string[] {
  return sentences(text).filter((s) => /^(?:Before|Only after|Only when)\b/.test(s));
}

const EXCEPTION_MARK = /\bExceptions?:\s*/;

/**
 * Split a clause at its first `Exception:`/`Exceptions:` marker: the part before, and the
 * exceptions after it (null without a marker). After the plural `Exceptions:`, `;` separates one
 * exception from the next.
 */
export function splitExceptions(text: string): { main: string; exceptions: string[] | null } {
  const m = EXCEPTION_MARK.exec(text);
  if (!m) return { main: text.trim(), exceptions: null };
  const rest = text.slice(m.index + m[0].length).trim();
  const list = m[0].startsWith("Exceptions") ? rest.split(/;\s+/) : [rest];
  return { main: text.slice(0, m.index).trim(), exceptions: list.map((s) => s.trim()).filter((s) => s !== "") };
}
