/**
 * A small SQLite tokenizer: enough to find the leading keyword, the named parameters and the
 * identifiers of a statement without being fooled by string literals or comments. It never
 * rewrites SQL; the world runtime only ever binds values.
 */

export type SqlTokenKind = "word" | "quoted" | "param" | "string" | "number" | "punct";

export interface SqlToken {
  kind: SqlTokenKind;
  /** Word text (as written), quoted identifier without its quotes, or parameter name with its prefix. */
  text: string;
}

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Split SQL into tokens, dropping whitespace and comments. Unterminated literals run to the end. */
export function tokenizeSql(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i] as string;
    if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f") {
      i++;
    } else if (c === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n") i++;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      // Doubling the quote escapes it in all three forms.
      let j = i + 1;
      let text = "";
      while (j < n) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            text += c;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j];
        j++;
      }
      out.push({ kind: c === "'" ? "string" : "quoted", text });
      i = j + 1;
    } else if (c === "[") {
      const end = sql.indexOf("]", i + 1);
      out.push({ kind: "quoted", text: sql.slice(i + 1, end < 0 ? n : end) });
      i = end < 0 ? n : end + 1;
    } else if ((c === ":" || c === "@" || c === "$") && i + 1 < n && WORD_START.test(sql[i + 1] as string)) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j] as string)) j++;
      out.push({ kind: "param", text: sql.slice(i, j) });
      i = j;
    } else if (c === "?") {
      let j = i + 1;
      while (j < n && /[0-9]/.test(sql[j] as string)) j++;
      out.push({ kind: "param", text: sql.slice(i, j) });
      i = j;
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j] as string)) j++;
      out.push({ kind: "word", text: sql.slice(i, j) });
      i = j;
    } else if (/[0-9.]/.test(c) && (c !== "." || /[0-9]/.test(sql[i + 1] ?? ""))) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(sql[j] as string)) j++;
      out.push({ kind: "number", text: sql.slice(i, j) });
      i = j;
    } else {
      out.push({ kind: "punct", text: c });
      i++;
    }
  }
  return out;
}

/** Upper-case first keyword of a statement (`SELECT`, `WITH`, `INSERT`, ...), or "" if none. */
export function leadingKeyword(tokens: readonly SqlToken[]): string {
  for (const t of tokens) {
    if (t.kind === "word") return t.text.toUpperCase();
    if (t.kind === "punct" && t.text === "(") continue;
    return "";
  }
  return "";
}

/** Named parameters used with the `:name` form, without the colon, in first-use order. */
export function namedParams(tokens: readonly SqlToken[]): string[] {
  const seen = new Set<string>();
  for (const t of tokens) if (t.kind === "param" && t.text.startsWith(":")) seen.add(t.text.slice(1));
  return [...seen];
}

/** Parameters written in a form the world format does not allow (`?`, `?1`, `@x`, `$x`). */
export function foreignParams(tokens: readonly SqlToken[]): string[] {
  return tokens.filter((t) => t.kind === "param" && !t.text.startsWith(":")).map((t) => t.text);
}

