import type { ManualParam } from "./parse-params.js";
import { isIdentifier, snake, splitTop, words } from "./text.js";

/**
 * Parameters a manual states in prose when it gives no parameter list (a "`fn` — …" paragraph
 * without an Input table). Each pattern names its inputs exactly; anything else stays a review item:
 *
 * - a colon list: "places a hold: kind (documentary or physical), document required (…) and reason";
 * - a parenthesised list after the thing sent or asked for: "sends the corrected terms (declaration,
 *   corrected commodity code, corrected customs value)", "uploads a document (type and reference)";
 * - "the declaration, DAN and amount must be exactly those authorised" (the names before "must be exactly");
 * - "the three terms must be exactly those the declarant approved": the terms of the function before
 *   it that sends terms;
 * - "with the proof of origin reference", "to the DAN given": one reference or number.
 *
 * An abbreviation the manual defines ("deferment approval number (DAN)") stands for its words.
 */

/** "deferment approval number (DAN)" → DAN: deferment approval number, when the initials spell it. */
export function abbreviations(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/((?:[A-Za-z]+\s+){1,6})\(([A-Z]{2,6})\)/g)) {
    const abbr = m[2] as string;
    const ws = (m[1] as string).trim().split(/\s+/);
    const phrase = ws.slice(-abbr.length);
    if (phrase.length === abbr.length && phrase.every((w, i) => w[0]?.toUpperCase() === abbr[i]) && !out.has(abbr)) out.set(abbr, phrase.join(" ").toLowerCase());
  }
  return out;
}

const CUSTOMER = /\b(?:as stated|stated|given|quoted) by the [a-z]+/i;

/** One prose item ("the payment reference (HVD-)", "kind (documentary or physical)") → a parameter, or null when it is not a short noun phrase. */
function item(text: string, abbr: ReadonlyMap<string, string>): ManualParam | null {
  const spec = /\(([^)]*)\)/.exec(text)?.[1] ?? "";
  let head = text.replace(/\(.*?\)/g, " ").replace(/\s+/g, " ").trim();
  head = head.replace(/^(?:the|a|an|its|their|one|exact|the exact)\s+/i, "").replace(/^exact\s+/i, "").trim();
  if (head.length === 0) return null;
  const expanded = head.split(" ").map((w) => abbr.get(w) ?? w).join(" ");
  const ws = expanded.split(" ");
  if (ws.length > 4 || ws.some((w) => !/^[A-Za-z][A-Za-z-]*$/.test(w))) return null;
  if (/^(?:both|all|each|every|which|that|and|or|to|from|with)$/i.test(ws[0] as string)) return null;
  const name = snake(expanded);
  if (!isIdentifier(name)) return null;
  const p: ManualParam = { name, exact: false, note: text.trim() };
  // "kind (documentary or physical)": the values it takes.
  const values = spec.split(/\s*(?:,|\bor\b)\s*/).map((v) => v.trim());
  if (values.length >= 2 && values.every((v) => /^[a-z]+$/.test(v))) p.enum = values;
  return p;
}

/** The items of a list ("a, b and c"), each a parameter; null unless every item is one. */
function list(text: string, abbr: ReadonlyMap<string, string>): ManualParam[] | null {
  const parts = splitTop(text, /,\s*(?:and\s+)?|\s+and\s+/).map((x) => x.trim()).filter((x) => x.length > 0);
  if (parts.length < 2) return null;
  const out = parts.map((x) => item(x, abbr));
  return out.every((x) => x !== null) ? (out as ManualParam[]) : null;
}

export interface ProseParams {
  params: ManualParam[];
  /** The sentence they were read from. */
  from: string;
}

/**
 * Parameters of a function from its prose (see the module comment); `first` is its first sentence,
 * `text` all it says; `before` the terms a function before it sends (for "the N terms must be exactly those …").
 */
export function proseParams(first: string, text: string, abbr: ReadonlyMap<string, string>, before: ManualParam[] | null): ProseParams | null {
  const src = CUSTOMER.test(first);
  const mark = (ps: ManualParam[], from: string): ProseParams => ({ params: ps.map((p) => (src ? { ...p, source: "customer" } : p)), from });
  // "places a hold: kind (…), document required (…) and reason[, both as stated by …]"
  const colon = /:\s+(.*)$/.exec(first.replace(/\.$/, ""));
  if (colon) {
    const body = splitTop(colon[1] as string, /,\s*(?=(?:both|all|each)\b)|;\s*/)[0] as string;
    const ps = list(body, abbr);
    if (ps) return mark(ps, first);
  }
  // "sends the corrected terms (declaration, corrected commodity code, corrected customs value) to …"
  const paren = /\b(?:terms|details|particulars|charge|document|values?|figures)\s+\(([^()]+)\)/i.exec(first);
  if (paren) {
    const ps = list(paren[1] as string, abbr);
    if (ps) return mark(ps, first);
  }
  // "the declaration, DAN and amount must be exactly those authorised"
  const exact = /(?:^|;\s*|\.\s+)(?:the\s+)?([^;.]+?)\s+must be exactly those\b/i.exec(text);
  if (exact) {
    const n = /^(?:two|three|four|five|\d+) terms$/i.exec((exact[1] as string).trim());
    if (n && before && before.length > 0) return { params: before.map((p) => ({ ...p })), from: exact[0].trim() };
    const ps = list(exact[1] as string, abbr);
    if (ps) return mark(ps, exact[0].trim());
  }
  // "with the proof of origin reference", "to the DAN given"
  const one = /\bwith the ((?:[a-z]+ ){0,4}(?:reference|number))\b/i.exec(first) ?? /\b(?:to|from|on) the ([A-Z]{2,6}) given\b/.exec(first);
  if (one) {
    const p = item(one[1] as string, abbr);
    if (p) return mark([p], first);
  }
  return null;
}

/** Whether a prose list looks like terms sent for approval (the function returns a proposal). */
export function sendsTerms(text: string): boolean {
  return /\bproposal (?:number|id)\b/i.test(text) && words(text).includes("terms");
}
