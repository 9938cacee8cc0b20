import { formatsIn, isIdentifier, snake, splitTop } from "./text.js";

/** A parameter as a tool manual states it. */
export interface ManualParam {
  name: string;
  /** Written as a snake_case name (true) or made from prose such as "storage item" (false). */
  exact: boolean;
  type?: "string" | "integer" | "number" | "boolean";
  enum?: string[];
  minimum?: number;
  maximum?: number;
  max_length?: number;
  pattern?: string;
  source?: "customer" | "agent";
  /** What the manual says about it (the text after the name). */
  note: string;
}

const CUSTOMER_SOURCE = /\b(?:ask(?:ed)? the [a-z]+|(?:as|when|exactly as) (?:stated|given|quoted|told|instructed|requested|reported|confirmed|supplied) by the|(?:stated|given|quoted|told|supplied) by the [a-z]+|as the [a-z]+ (?:says|gives|states))/i;
const AGENT_FREE_TEXT = /^(?:note|notes|summary|comment|comments|remark|remarks|situation|background|assessment|recommendation|narrative)$/;

/** `walk_in / ambulance`, `DUPL, TECH, FRAD, CUST or UPAY`, `no / yes`: two or more plain tokens at the start. */
function enumAtStart(text: string): string[] | null {
  const m = /^(?:one of\s+)?((?:[A-Za-z][A-Za-z0-9_:-]*)(?:\s*(?:\/|,|\bor\b)\s*[A-Za-z][A-Za-z0-9_:-]*)+)(?=\s*(?:,|;|\)|$|\.|\s+as\b|\s*-))/.exec(text.trim());
  if (!m) return null;
  const tokens = (m[1] as string).split(/\s*(?:\/|,|\bor\b)\s*/).filter((t) => t.length > 0);
  if (tokens.length < 2) return null;
  // Codes (snake_case or capitals) or single lowercase words; not prose such as "amount, currency".
  const codeLike = tokens.every((t) => /^[a-z][a-z0-9_:-]*$/.test(t) || /^[A-Z0-9_-]+$/.test(t));
  if (!codeLike) return null;
  if (!tokens.some((t) => /[_:-]/.test(t) || /^[A-Z0-9]+$/.test(t)) && tokens.length > 2 && !/\//.test(m[1] as string)) return null;
  return tokens;
}

/** Read the `(string, one of a / b, 1 to 5, ask the patient)` spec and the note after a name. */
function readSpec(p: ManualParam, spec: string): void {
  for (const part of splitTop(spec, /,\s*/)) {
    const s = part.trim();
    if (/^(string|text)$/i.test(s)) p.type = "string";
    else if (/^integer$/i.test(s)) p.type = "integer";
    else if (/^(number|decimal|amount)$/i.test(s)) p.type = "number";
    else if (/^boolean$/i.test(s)) p.type = "boolean";
    const range = /^(-?\d+(?:\.\d+)?)\s+to\s+(-?\d+(?:\.\d+)?)$/.exec(s);
    if (range) {
      p.minimum = Number(range[1]);
      p.maximum = Number(range[2]);
    }
    const chars = /up to (\d+) characters/i.exec(s);
    if (chars) p.max_length = Number(chars[1]);
    const list = enumAtStart(s);
    if (list && !p.enum) p.enum = list;
  }
}

/**
 * Parameters from a manual's "Parameters: …" text: `;`-separated entries, each one or more names
 * (`payment_id, amount`) with an optional `(spec)` and a note after `—`, `-` or `:`. An entry whose
 * name is prose ("freight and insurance") becomes a snake_case name marked inexact.
 */
export function parseParams(text: string, opts: { prose?: boolean } = {}): ManualParam[] {
  const t = text.trim().replace(/\.$/, "");
  if (/^(?:none|no parameters?|—|-|–)?$/i.test(t)) return [];
  const out: ManualParam[] = [];
  for (const entry of splitTop(t, /;\s*/)) {
    const dash = separatorAt(entry);
    const head = dash ? entry.slice(0, dash.index) : entry;
    const note = dash ? entry.slice(dash.index + dash.length).trim() : "";
    const items = splitTop(head, /,\s*/);
    const parsed = items.map((item) => {
      const m = /^([a-z][a-z0-9_]*)\s*(?:\((.*)\))?\s*(.*)$/.exec(item.trim());
      return m && (m[3] as string).trim() === "" ? { name: m[1] as string, spec: m[2] ?? "" } : null;
    });
    if (parsed.every((x) => x !== null) && parsed.length > 0) {
      parsed.forEach((x, i) => {
        const p: ManualParam = { name: (x as { name: string }).name, exact: true, note: i === parsed.length - 1 ? note : "" };
        readSpec(p, (x as { spec: string }).spec);
        finish(p, `${(x as { spec: string }).spec} ${i === parsed.length - 1 ? note : ""}`);
        out.push(p);
      });
      continue;
    }
    // Text after a `;` inside a note ("…: why the patient is escalated; the board's flag shows it"): still that note.
    const last = out[out.length - 1];
    if (!opts.prose && last) {
      last.note = `${last.note}; ${entry}`;
      continue;
    }
    // Prose entry ("the set-up form reference (BSF-yyyy-nnnn)"): its words are the name.
    const name = proseName(head);
    if (!isIdentifier(name)) continue;
    const p: ManualParam = { name, exact: false, note: entry };
    finish(p, entry);
    out.push(p);
  }
  return out;
}

/** "the deferment approval number (DAN) stated by the declarant" → `deferment_approval_number`. */
function proseName(head: string): string {
  const bare = head.replace(/\(.*?\)/g, " ").replace(/^\s*(?:the|a|an)\s+/i, "");
  const cut = bare.split(/\s+(?:stated|given|quoted|as|from|to|for|in|on|of the|by|with|that|which)\s+/i)[0] ?? bare;
  return snake(cut);
}

/** The first ` — `, ` - ` or `: ` outside parentheses: where a parameter's note starts. */
function separatorAt(entry: string): { index: number; length: number } | null {
  let depth = 0;
  for (let i = 0; i < entry.length; i++) {
    const c = entry[i] as string;
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      const m = /^(?:\s[—–]\s|\s-\s|:\s)/.exec(entry.slice(i));
      if (m) return { index: i, length: m[0].length };
    }
  }
  return null;
}

function finish(p: ManualParam, text: string): void {
  if (!p.enum) {
    const list = enumAtStart(p.note);
    if (list) p.enum = list;
  }
  if (CUSTOMER_SOURCE.test(text)) p.source = "customer";
  else if (AGENT_FREE_TEXT.test(p.name) && !p.enum) p.source = "agent";
  const formats = formatsIn(text);
  if (formats.length > 0) p.pattern = formats[0] as string;
  const chars = /up to (\d+) characters/i.exec(text);
  if (chars) p.max_length = Number(chars[1]);
}

/** One row of an Input | Meaning table: the cell names the parameter in prose, the meaning is its note. */
export function proseParam(cell: string, note: string): ManualParam | null {
  const name = isIdentifier(cell.trim()) ? cell.trim() : proseName(cell);
  if (!isIdentifier(name)) return null;
  const p: ManualParam = { name, exact: isIdentifier(cell.trim()), note };
  finish(p, `${cell} ${note}`);
  return p;
}
