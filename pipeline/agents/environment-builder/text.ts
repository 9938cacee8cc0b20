/**
 * Small text helpers of the world drafter: words, snake_case names, plurals, sentence and quote
 * scanning, amounts, identifier formats. Pure functions over strings; nothing domain-specific.
 */

const STOP = new Set(["a", "an", "the", "of", "to", "for", "in", "on", "and", "or", "with", "by", "is", "are", "be", "it", "its", "this", "that", "at", "as", "from", "no", "not"]);

/** Lowercase word tokens of a text (letters and digits), stop words kept. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 0);
}

/** Lowercase content words (stop words dropped). */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOP.has(w));
}

/** `Set-up form reference` → `set_up_form_reference`. */
export function snake(text: string): string {
  return words(text).join("_");
}

/** A lowercase SQL identifier (snake_case). */
export function isIdentifier(s: string): boolean {
  return /^[a-z][a-z0-9_]*$/.test(s);
}

/** `payment` → `payments`, `entry` → `entries`, `box` → `boxes`, already plural stays. */
export function plural(noun: string): string {
  if (/(?:s|x|ch|sh)$/.test(noun)) return noun.endsWith("ss") || !noun.endsWith("s") ? `${noun}es` : noun;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

/** `payments` → `payment`, `entries` → `entry`, `boxes` → `box`. */
export function singular(noun: string): string {
  if (/ies$/.test(noun)) return `${noun.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(noun)) return noun.slice(0, -2);
  if (/s$/.test(noun) && !/ss$/.test(noun)) return noun.slice(0, -1);
  return noun;
}

/** Whether word `a` and word `b` are the same word up to an ending (`temp` ~ `temporary`, `ref` ~ `reference`, `estimated` ~ `estimate`). */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  if (s.length >= 3 && l.startsWith(s)) return true;
  const stem = (w: string) => w.replace(/(?:ies|es|s|ed|d|ing)$/, "");
  // "beneficiaries" ~ "beneficiary": the same word in the plural.
  if (singular(a) === singular(b) && singular(a).length >= 3) return true;
  return stem(a) === stem(b) && stem(a).length >= 3;
}

/** How many tokens of `name` (a snake_case identifier) occur among `text`'s words; every name token must be there for a full match. */
export function nameScore(name: string, text: string): { hits: number; all: boolean } {
  const tokens = name.split("_").filter((t) => t.length > 0);
  const ws = words(text);
  const hits = tokens.filter((t) => ws.some((w) => sameWord(t, w))).length;
  return { hits, all: hits === tokens.length };
}

/** Text inside straight or curly double quotes, in order, with their offsets. */
export function quoted(text: string): Array<{ text: string; start: number; end: number }> {
  const out: Array<{ text: string; start: number; end: number }> = [];
  const re = /"([^"]+)"|“([^”]+)”/g;
  for (const m of text.matchAll(re)) out.push({ text: (m[1] ?? m[2] ?? "").trim(), start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * The sentence of `text` that starts at `from`: up to a full stop followed by a space and a capital
 * (or the end), at parenthesis depth 0, skipping `e.g.` / `i.e.` and decimal points.
 */
export function sentenceFrom(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (c === "." && depth === 0) {
      const before = text.slice(Math.max(0, i - 4), i + 1).toLowerCase();
      if (/(?:e\.g|i\.e|\bno|\bvs)\.$/.test(before)) continue;
      const next = text.slice(i + 1, i + 3);
      if (i + 1 >= text.length || /^\s[A-Z"“`]/.test(next) || /^\s*$/.test(text.slice(i + 1))) return text.slice(from, i).trim();
    }
  }
  return text.slice(from).trim();
}

/** Split at `sep` where not inside parentheses. */
export function splitTop(text: string, sep: RegExp): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      const m = sep.exec(text.slice(i));
      if (m && m.index === 0) {
        out.push(text.slice(start, i));
        i += m[0].length - 1;
        start = i + 1;
      }
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** `EUR 1,000,000.00` → 1000000; the first amount written with a currency code, or null. */
export function amountIn(text: string): { value: number; unit: string; index: number } | null {
  const m = /\b([A-Z]{3})\s?(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)\b/.exec(text);
  if (!m) return null;
  return { value: Number((m[2] as string).replace(/,/g, "")), unit: m[1] as string, index: m.index };
}

/**
 * An identifier format as a regular expression: `BSF-yyyy-nnnn` → `^BSF-\d{4}-\d{4}$`, `UTChhmm`
 * → `^UTC\d{4}$`; an example `MRN-204511` → `^MRN-\d{6}$`. Null when the text is not one.
 */
export function formatPattern(token: string): string | null {
  const t = token.replace(/[.,;:)]+$/, "");
  if (!/^[A-Z][A-Z0-9]*(?:-?[A-Za-z0-9]+)*$/.test(t) || !/[a-z0-9]/.test(t)) return null;
  const parts = t.match(/[A-Z]+|[a-z]+|\d+|-/g) ?? [];
  let re = "^";
  for (const p of parts) {
    if (p === "-") re += "-";
    else if (/^[A-Z]+$/.test(p)) re += p;
    else if (p === "n" || p === "d") re += "\\d+";
    else if (/^[ynhdm]+$/.test(p)) re += `\\d{${p.length}}`;
    else if (/^\d+$/.test(p)) re += `\\d{${p.length}}`;
    else return null;
  }
  return `${re}$`;
}

/** Identifier formats written with placeholders in a text (`(BSF-yyyy-nnnn)`, `UTChhmm`), in order. Examples (`MRN-204511`) are not formats. */
export function formatsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\b[A-Z]{2,}[A-Z0-9]*(?:-[A-Za-z0-9]+)+\b|\b[A-Z]{2,}(?:hh)?mm\b/g)) {
    const p = formatPattern(m[0]);
    if (p && /[a-z]/.test(m[0])) out.push(p);
  }
  return out;
}

/** `Payment reference` (sentence case) for an identifier. */
export function humanise(name: string): string {
  const s = name.replace(/_/g, " ");
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}
