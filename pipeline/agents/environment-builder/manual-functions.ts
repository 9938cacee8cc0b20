import type { Block, DocumentOutline, Section, TableBlock } from "../../sources/outline-types.js";
import { parseParams, proseParam, type ManualParam } from "./parse-params.js";
import { abbreviations, proseParams, sendsTerms } from "./prose-params.js";
import { formatPattern, isIdentifier, quoted, sameWord, sentenceFrom, snake, splitTop, words } from "./text.js";

/**
 * The functions a tool manual documents, read from the structures manuals use (sources/README.md,
 * "What the world drafter reads"): enquiry tables (Function | Parameters | Returns), one heading per
 * function (`### \`fn\``) with "Parameters:", "Returns", "Refusals:" and quoted messages or
 * `- \`id\`: message` items, or a paragraph "`fn` — what it does" followed by Input and
 * Message | Cause tables. Every function keeps the line it was found on.
 */

export interface Refusal {
  message: string;
  /** Id the manual gives (`- \`attendance_open\`: …`), if any. */
  id?: string;
  line: number;
  /** Clause ids the message (or its Cause cell) cites. */
  clauses: string[];
  /** The Cause cell of a Message | Cause table ("Already secured or released"). */
  cause?: string;
}

export interface ManualFunction {
  name: string;
  document: string;
  file: string;
  line: number;
  access: "read" | "write";
  side: "agent" | "customer";
  description: string;
  /** Every prose sentence about the function (what it sets, needs, returns). */
  text: string;
  params: ManualParam[] | null;
  /** The sentence the parameters were read from when the manual gives no list (prose-params.ts). */
  paramsFromProse?: string;
  returns: { fields: string[]; many: boolean; text: string } | null;
  refusals: Refusal[];
}

export interface ManualConventions {
  /** Clock time of logical minute 0, in minutes after midnight (e.g. 540 for 09:00). */
  minuteZero: number | null;
  /** Identifier formats the conventions list: the words naming the thing and the pattern. */
  formats: Array<{ noun: string; pattern: string; written: string }>;
}

export interface ManualInput {
  document: string;
  file: string;
  text: string;
  outline: DocumentOutline;
}

const READ_VERB = /^(?:get|list|find|search|lookup|look_up|next|show|view|read|check|query)_/;
const READ_SECTION = /enquir|look(?:ing)?(?: things)? up|\bread\b|quer|change nothing|lookup/i;
const CUSTOMER_SECTION = /(?:taken by|actions? of|side\b|portal|by the) .*?(?:client|customer|patient|relative|declarant|trader|caller)|(?:client|customer|patient|declarant|trader) (?:actions|side|portal)/i;
/** A customer action that approves a proposal (`approve_amendment`, `authorise_deferment_charge`): it takes the proposal id. */
const APPROVING = /^(?:approve|accept|authori[sz]e|consent|agree|confirm|sign|give)_[a-z0-9_]+$/;
const PROPOSAL_PARAM = (): ManualParam => ({ name: "proposal_id", exact: true, type: "string", note: "Proposal to approve." });
const CLAUSE_ID = /\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+(?:\.\d+)*\b/g;

const blockText = (b: Block): string[] => {
  if (b.type === "paragraph") return [b.text];
  if (b.type === "list") return b.items.flatMap((i) => [i.text, ...i.blocks.flatMap(blockText)]);
  if (b.type === "quote") return b.blocks.flatMap(blockText);
  return [];
};

/** First line of `snippet` in `text` (by its first 40 characters), or `fallback`. */
function lineOf(text: string, snippet: string, fallback: number): number {
  const probe = snippet.slice(0, 40).replace(/\s+/g, " ");
  const flat = text.replace(/\s+/g, (w) => (w.includes("\n") ? " \n".slice(1) : " "));
  const i = flat.indexOf(probe);
  if (i < 0) {
    const j = text.indexOf(snippet.slice(0, 20));
    return j < 0 ? fallback : text.slice(0, j).split("\n").length;
  }
  return flat.slice(0, i).split("\n").length;
}

const cellCode = (cell: { text: string; codes: Array<{ value: string }> }) => cell.codes.find((c) => isIdentifier(c.value))?.value;

/** The conventions: minute 0 and identifier formats. */
export function readConventions(manuals: readonly ManualInput[]): ManualConventions {
  const out: ManualConventions = { minuteZero: null, formats: [] };
  for (const m of manuals) {
    const all = m.outline.sections.flatMap((s) => s.blocks.flatMap(blockText)).join("\n");
    const zero = /minute 0\s*(?:=|is)\s*[^.;\n]*?(\d{1,2}):(\d{2})|\b0 is (\d{1,2}):(\d{2})|from (\d{1,2}):(\d{2})[^.;\n]*?minute 0/i.exec(all) ?? /minutes? from (\d{1,2}):(\d{2})/i.exec(all);
    if (zero && out.minuteZero === null) {
      const [h, mm] = zero.slice(1).filter((x) => x !== undefined);
      out.minuteZero = Number(h) * 60 + Number(mm);
    }
    for (const line of all.split("\n")) {
      const head = /^(?:\*\*)?[^:]{0,40}(?:references|identifiers|formats?)\W*:?\s*(.*)$/i.exec(line.replace(/\*\*[^*]+\*\*\s*/, (x) => x.replace(/\*\*/g, "")));
      if (!head) continue;
      for (const part of splitTop(head[1] as string, /;\s*/)) {
        const mm = /^(.*?)\s+([A-Z][A-Za-z0-9-]*[a-z][A-Za-z0-9-]*)\b/.exec(part.trim());
        const pattern = mm ? formatPattern(mm[2] as string) : null;
        if (mm && pattern && (mm[1] as string).length > 0) out.formats.push({ noun: (mm[1] as string).trim().toLowerCase(), pattern, written: mm[2] as string });
      }
    }
  }
  return out;
}

interface Draft extends ManualFunction {
  explicitParams: boolean;
}

/** A function is an enquiry when its name starts with a reading verb, or when an enquiry section's table lists it. */
function newFunction(name: string, m: ManualInput, line: number, access: "read" | "write", side: "agent" | "customer", inTable = false): Draft {
  const reads = READ_VERB.test(name) || (access === "read" && inTable);
  return { name, document: m.document, file: m.file, line, access: reads && side === "agent" ? "read" : "write", side, description: "", text: "", params: null, returns: null, refusals: [], explicitParams: false };
}

/** "Returns: a, b" / "Returns a list of: a, b" / "Returns the quote and a proposal id" → field names. */
export function parseReturns(sentence: string): { fields: string[]; many: boolean; text: string } {
  let t = sentence.replace(/^Returns?:?\s*/i, "").replace(/^return\s+/i, "");
  const many = /^(?:a list of|all\b|every\b|the list of)/i.test(t) || /\blist\b/i.test(t.slice(0, 20));
  // "holds with kind, reason, …": the fields, not "holds kind".
  t = t.replace(/^(?:[a-z]+ ){0,2}[a-z]+s with\s+/i, "");
  t = t.replace(/\b(?:oldest|newest|latest|earliest) first\b,?/gi, "").replace(/\bwith\s+/gi, "");
  t = t.replace(/^(?:a list of|the list of)\s*:?\s*/i, "").replace(/^[A-Z][\w -]{0,30}:\s*/, "");
  const fields: string[] = [];
  for (const item of splitTop(t, /,\s*|\s+and\s+|;\s*/)) {
    const inner = /\(([a-z][a-z0-9_]*)\)/.exec(item);
    const bare = item.replace(/\(.*?\)/g, "").replace(/^(?:the|a|an|its|their|both|all)\s+/i, "").trim();
    const name = inner?.[1] ?? (isIdentifier(bare) ? bare : bare.split(/\s+/).length <= 3 ? snake(bare) : "");
    if (name && isIdentifier(name) && !fields.includes(name)) fields.push(name);
  }
  return { fields, many, text: sentence };
}

/** Refusal messages in a function's prose: quoted strings after the first "Refusal"/"refused", with `fn` only: switches. */
function proseRefusals(text: string, names: readonly string[], own: Map<string, Draft>, earlier: readonly Draft[], m: ManualInput, fallback: number): void {
  const start = text.search(/\brefus(?:al|als|es|ed)\b/i);
  if (start < 0) return;
  let body = text.slice(start);
  const add = (targets: readonly string[], message: string) => {
    for (const t of targets) {
      const f = own.get(t);
      if (f && !f.refusals.some((r) => r.message === message)) f.refusals.push({ message, line: lineOf(m.text, message, fallback), clauses: [...message.matchAll(CLAUSE_ID)].map((x) => x[0]) });
    }
  };
  // "the two messages of `fn` (the expiry one reads "…")" and "the X message of `fn`" / "the X message above".
  body = body.replace(/the (?:two|three|four|\d+) messages of `([a-z0-9_]+)`(?:\s*\(the (\w+) one reads "([^"]+)"\))?/gi, (_all, fn: string, word?: string, reads?: string) => {
    const src = [...own.values(), ...earlier].find((f) => f.name === fn);
    const list = src?.refusals ?? [];
    // "(the expiry one reads "…")": the message named by the word, else the one sharing the most words with what it reads.
    const shared = (m: string) => words(m).filter((w) => w.length > 3 && words(reads ?? "").includes(w)).length;
    const byWord = word ? list.find((r) => r.message.toLowerCase().includes(word.toLowerCase())) : undefined;
    const best = reads && !byWord ? [...list].sort((a, b) => shared(b.message) - shared(a.message))[0] : undefined;
    const replaced = byWord ?? (best && shared(best.message) > 0 ? best : undefined);
    for (const r of list) add(names, reads && r === replaced ? reads : r.message);
    return "";
  });
  body = body.replace(/the ([\w-]+) message (?:of `([a-z0-9_]+)`|above)/gi, (_all, word: string, fn?: string) => {
    const pool = fn ? [...own.values(), ...earlier].filter((f) => f.name === fn) : [...earlier].reverse();
    const hit = pool.flatMap((f) => f.refusals).find((r) => r.message.toLowerCase().includes(word.toLowerCase()));
    if (hit) add(names, hit.message);
    return "";
  });
  let targets: readonly string[] = names;
  const marks = [...body.matchAll(/`([a-z0-9_]+)` only:/g)].map((x) => ({ at: x.index, fn: x[1] as string }));
  for (const q of quoted(body)) {
    const mark = marks.filter((x) => x.at < q.start).at(-1);
    targets = mark ? [mark.fn] : names;
    add(targets, q.text);
  }
}

/** Functions of one section whose heading names them in inline code. */
function headingFunctions(section: Section, m: ManualInput, access: "read" | "write", side: "agent" | "customer", earlier: readonly Draft[]): Draft[] {
  const names = [...section.title.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((x) => x[1] as string);
  if (names.length === 0) return [];
  const own = new Map(names.map((n) => [n, newFunction(n, m, section.line_start, access, side)]));
  const texts = section.blocks.flatMap(blockText);
  const prose = texts.join(" ");
  for (const f of own.values()) {
    f.text = prose;
    const first = section.blocks.find((b) => b.type === "paragraph");
    f.description = first && first.type === "paragraph" ? sentenceFrom(first.text.replace(/^`[a-z0-9_]+`\s*(?:\([^)]*\))?\s*/, ""), 0) : "";
  }
  // Per-function parameter lists: "`fn` (parameter payment_id)" / "`fn` (parameters a, b exactly as approved)".
  for (const x of prose.matchAll(/`([a-z0-9_]+)`\s*\(parameters?\s+([^)]*)\)/g)) {
    const f = own.get(x[1] as string);
    if (f) {
      f.params = parseParams((x[2] as string).replace(/\s+exactly as \w+$/, ""));
      f.explicitParams = true;
    }
  }
  const p = /\b(?:Parameters?|Inputs?|Arguments?):\s*/.exec(prose) ?? /\bNo parameters\b/.exec(prose);
  if (p) {
    const list = p[0].startsWith("No") ? [] : parseParams(sentenceFrom(prose, p.index + p[0].length));
    for (const f of own.values()) if (!f.explicitParams) (f.params = list), (f.explicitParams = true);
  }
  const r = /\bReturns?\b:?/.exec(prose);
  if (r) {
    const ret = parseReturns(sentenceFrom(prose, r.index));
    for (const f of own.values()) f.returns = ret;
  }
  // `- \`id\`: message` items and `- "message"` items.
  for (const b of section.blocks) {
    if (b.type !== "list") continue;
    for (const item of b.items) {
      const idm = /^`([a-z][a-z0-9_]*)`:\s*(.+)$/.exec(item.text);
      const q = quoted(item.text);
      const message = idm ? (idm[2] as string).trim() : q.length === 1 && q[0]!.start <= 1 ? q[0]!.text : null;
      if (!message) continue;
      for (const f of own.values()) {
        if (!f.refusals.some((x) => x.message === message)) f.refusals.push({ message, ...(idm ? { id: idm[1] as string } : {}), line: item.line_start, clauses: [...message.matchAll(CLAUSE_ID)].map((c) => c[0]) });
      }
    }
  }
  proseRefusals(section.blocks.filter((b) => b.type === "paragraph").map((b) => (b as { text: string }).text).join(" "), names, own, earlier, m, section.line_start);
  return [...own.values()];
}

/** Rows of a Function | Parameters | Returns table (or Action | Used for). */
function tableFunctions(t: TableBlock, m: ManualInput, access: "read" | "write", side: "agent" | "customer"): Draft[] {
  const head = t.header.map((c) => c.text.toLowerCase());
  if (!/function|action|operation|command|tool/.test(head[0] ?? "")) return [];
  const col = (re: RegExp) => head.findIndex((h, i) => i > 0 && re.test(h));
  const pi = col(/param|input|argument/);
  const ri = col(/return|output|shows/);
  const di = col(/used for|description|purpose|what/);
  const out: Draft[] = [];
  for (const row of t.rows) {
    const name = cellCode(row.cells[0] ?? { text: "", codes: [] });
    if (!name) continue;
    const f = newFunction(name, m, row.line, access, side, true);
    if (pi >= 0) {
      const cell = row.cells[pi]?.text ?? "";
      f.params = parseParams(cell.replace(/`/g, ""), { prose: true });
      f.explicitParams = true;
    }
    else if (side === "customer" && APPROVING.test(name)) {
      // An Action | Used for row of the customer's side: an approving action takes the proposal id.
      f.params = [PROPOSAL_PARAM()];
      f.explicitParams = true;
    }
    if (ri >= 0) f.returns = parseReturns(row.cells[ri]?.text ?? "");
    f.description = di >= 0 ? (row.cells[di]?.text ?? "") : ri >= 0 ? `Returns ${(row.cells[ri]?.text ?? "").replace(/^([A-Z])/, (c) => c.toLowerCase())}` : "";
    f.text = row.cells.map((c) => c.text).join(" ");
    out.push(f);
  }
  return out;
}

/** "`fn` — what it does" paragraphs, their Input tables, and Message | Cause tables for the functions before them. */
function paragraphFunctions(section: Section, m: ManualInput, access: "read" | "write", side: "agent" | "customer"): Draft[] {
  const out: Draft[] = [];
  let group: Draft[] = [];
  let current = null as Draft | null;
  for (const b of section.blocks) {
    if (b.type === "paragraph") {
      // One paragraph may hold several "`fn` — …" leads (consecutive lines of one Markdown paragraph).
      const leads = [...b.text.matchAll(/(?:^|(?<=[.;:!?]\s))`([a-z][a-z0-9_]*)`\s*[—–]\s*/g)];
      if (leads.length === 0 || leads[0]!.index !== 0) {
        if (current) current.text += ` ${b.text}`;
        continue;
      }
      for (let k = 0; k < leads.length; k++) {
        const lm = leads[k] as RegExpMatchArray & { index: number };
        const body = b.text.slice(lm.index + lm[0].length, leads[k + 1]?.index ?? b.text.length).trim();
        const f = newFunction(lm[1] as string, m, lineOf(m.text, lm[0], b.line_start), access, side);
        f.description = sentenceFrom(body, 0);
        f.text = body;
        out.push(f);
        group.push(f);
        current = f;
      }
      continue;
    }
    if (b.type !== "table") continue;
    const head = b.header.map((c) => c.text.toLowerCase());
    if (head[0] === "input" && current) {
      current.params = b.rows.flatMap((r) => proseParam(r.cells[0]?.text ?? "", r.cells[1]?.text ?? "") ?? []);
      current.explicitParams = true;
    } else if (/message/.test(head[0] ?? "")) {
      for (const r of b.rows) {
        const message = (r.cells[0]?.text ?? "").trim();
        const cause = r.cells[1]?.text ?? "";
        const clauses = [...`${message} ${cause}`.matchAll(CLAUSE_ID)].map((x) => x[0]);
        const named = [...cause.matchAll(/`([a-z0-9_]+)`/g)].map((x) => x[1] as string);
        // A message goes to the functions of the group its words name (`booked` → book_inspection), else to all of them.
        const score = (f: Draft) => f.name.split("_").filter((t) => words(message).some((w) => sameWord(t, w))).length;
        const best = Math.max(0, ...group.map(score));
        for (const f of group) if ((best === 0 || score(f) === best) && !named.includes(f.name)) f.refusals.push({ message, line: r.line, clauses, ...(cause.trim() ? { cause: cause.trim() } : {}) });
      }
      group = [];
    }
  }
  return out;
}

/** Every function of the tool manuals, in document order (the first definition of a name wins). */
export function readManualFunctions(manuals: readonly ManualInput[]): ManualFunction[] {
  const out: Draft[] = [];
  for (const m of manuals) {
    for (const s of m.outline.sections) {
      const titles = [s.title, ...ancestors(m.outline, s).map((a) => a.title)];
      const access = titles.some((t) => READ_SECTION.test(t)) ? "read" : "write";
      const side = titles.some((t) => CUSTOMER_SECTION.test(t)) ? "customer" : "agent";
      const found = [
        ...headingFunctions(s, m, access, side, out),
        ...s.blocks.flatMap((b) => (b.type === "table" ? tableFunctions(b, m, access, side) : [])),
        ...paragraphFunctions(s, m, access, side),
      ];
      // The paragraph after an enquiry table: "Unknown references are refused with "No client with this number.", …".
      const refused = s.blocks.filter((b) => b.type === "paragraph" && /refused with/i.test(b.text));
      for (const f of found) if (!out.some((o) => o.name === f.name)) out.push(f);
      for (const b of refused) {
        for (const q of quoted((b as { text: string }).text)) unknownReference(q.text, found, lineOf(m.text, q.text, b.line_start));
      }
    }
  }
  // Functions without a parameter list whose prose names their inputs (prose-params.ts).
  for (const m of manuals) {
    const abbr = abbreviations(m.text);
    let terms: ManualParam[] | null = null;
    for (const f of out) {
      if (f.file !== m.file) continue;
      if (f.params === null && !f.explicitParams) {
        const read = proseParams(f.description, f.text, abbr, terms);
        if (read) {
          f.params = read.params;
          f.paramsFromProse = read.from;
        }
      }
      if (f.params && sendsTerms(f.text)) terms = f.params;
    }
  }
  // Customer actions the manual names only in passing ("the desk sees them as `approve_payment_release`, …").
  for (const m of manuals) {
    for (const s of m.outline.sections) {
      for (const text of s.blocks.flatMap(blockText)) {
        for (const c of text.matchAll(/`([a-z][a-z0-9_]*)`/g)) {
          const name = c[1] as string;
          if (!APPROVING.test(name)) continue;
          if (out.some((o) => o.name === name)) continue;
          const f = newFunction(name, m, lineOf(m.text, c[0], s.line_start), "write", "customer");
          f.description = sentenceFrom(text, 0);
          f.text = text;
          f.params = [PROPOSAL_PARAM()];
          out.push(f);
        }
      }
    }
  }
  return out.map(({ explicitParams: _e, ...f }) => f);
}

/** "No client with this number." goes to the enquiry function that looks the client up by its key. */
function unknownReference(message: string, functions: readonly Draft[], line: number): void {
  const noun = /^No ([a-z][a-z -]*?) with this/i.exec(message)?.[1];
  if (!noun) return;
  const key = `${snake(noun)}_id`;
  for (const f of functions) {
    if (f.params?.length === 1 && (f.params[0]?.name === key || f.name === `get_${snake(noun)}`)) f.refusals.push({ message, line, clauses: [] });
  }
}

function ancestors(outline: DocumentOutline, s: Section): Section[] {
  const out: Section[] = [];
  let p = s.parent;
  while (p !== null) {
    const sec = outline.sections[p] as Section;
    out.push(sec);
    p = sec.parent;
  }
  return out;
}
