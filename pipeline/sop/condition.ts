/**
 * The condition language of SOP decisions (documented in sources/README.md). A branch's `when`, as
 * written, is parsed into a small tree: a named quantity compared with a number (with its unit), a
 * range, another named quantity (`the balance is at least the duty amount`), an enumerated value,
 * `and` / `or` / `not`, `any`; or an event of the last call (refused,
 * declined, approved), which the world itself decides. Text that is none of these does not parse
 * (null): it is never taken as true.
 */
export type Condition =
  | { kind: "compare"; quantity: string; op: "<" | "<=" | ">" | ">="; value: number; unit: string | null }
  | { kind: "relate"; quantity: string; op: "<" | "<=" | ">" | ">=" | "!="; other: string }
  | { kind: "range"; quantity: string; min: number; max: number; unit: string | null }
  | { kind: "in"; quantity: string; values: string[] }
  | { kind: "any" }
  | { kind: "and" | "or"; of: Condition[] }
  | { kind: "not"; of: Condition }
  | { kind: "event"; event: "refused" | "declined" | "approved" };

const UNIT = String.raw`(?:(EUR|USD|GBP|CHF)\s*)?`;
const NUM = String.raw`(-?\d[\d,]*(?:\.\d+)?)`;
// A unit ends where no letter follows (`\b` would never match after `%`).
const AFTER = String.raw`(?:\s*(EUR|USD|GBP|CHF|%|percent|minutes?|hours?|days?|years?|kg|mg\/l)(?![A-Za-z]))?`;

/** Comparators as written, value after them (`above EUR 250,000.00`) or before them (`60 or less`). */
const LEADING: Array<[RegExp, "<" | "<=" | ">" | ">="]> = [
  [/\b(?:up to and including|at most|not more than|no more than)\s+$/i, "<="],
  [/\b(?:at least|not less than|no less than)\s+$/i, ">="],
  [/\b(?:above|more than|over|exceeds?|exceeding|greater than|higher than)\s+$/i, ">"],
  [/\b(?:below|less than|under|lower than)\s+$/i, "<"],
];
const TRAILING: Array<[RegExp, "<=" | ">="]> = [
  [/^\s+or\s+(?:more|above|higher|over|later)\b/i, ">="],
  [/^\s+or\s+(?:less|below|lower|under|earlier)\b/i, "<="],
];

function number(s: string): number {
  return Number(s.replace(/,/g, ""));
}

/** The named quantity of a prose condition: the words before `is` / `are`, without articles. */
function quantityOf(text: string): string {
  const m = /^(.*?)\s+(?:is|are|was|were|has|reaches)\b/i.exec(text);
  return (m?.[1] ?? text).replace(/\([^)]*\)/g, " ").replace(/\b(?:the|a|an|its|their)\b/gi, " ").replace(/\s+/g, " ").trim();
}

/** A comparison of `quantity` with the first number of `text` and the comparator around it. */
function comparison(quantity: string, text: string): Condition | null {
  const range = new RegExp(String.raw`^\s*(?:from\s+|between\s+)?${UNIT}${NUM}${AFTER}\s+(?:to|and|-|–)\s+${UNIT}${NUM}${AFTER}\s*$`, "i").exec(text);
  if (range) return { kind: "range", quantity, min: number(range[2] as string), max: number(range[5] as string), unit: range[1] ?? range[3] ?? range[4] ?? range[6] ?? null };
  // A band open at the bottom: `above EUR 50,000.00 up to and including EUR 1,000,000.00`.
  const band = new RegExp(String.raw`^\s*(?:above|more than|over|exceeding)\s+${UNIT}${NUM}${AFTER}\s+(?:up to and including|up to|to|and up to)\s+${UNIT}${NUM}${AFTER}\s*$`, "i").exec(text);
  if (band) {
    const unit = band[1] ?? band[3] ?? band[4] ?? band[6] ?? null;
    return { kind: "and", of: [{ kind: "compare", quantity, op: ">", value: number(band[2] as string), unit }, { kind: "compare", quantity, op: "<=", value: number(band[5] as string), unit }] };
  }
  const re = new RegExp(`${UNIT}${NUM}${AFTER}`, "i");
  const m = re.exec(text);
  if (!m) return null;
  const before = text.slice(0, m.index);
  const after = text.slice(m.index + m[0].length);
  const unit = m[1] ?? m[3] ?? null;
  const value = number(m[2] as string);
  // Nothing may follow the comparison but a parenthetical: `10 or more and not yet secured` is not a comparison.
  const done = (rest: string) => /^\s*(?:\([^)]*\))?\s*$/.test(rest);
  for (const [r, op] of LEADING) if (r.test(before) && done(after)) return { kind: "compare", quantity, op, value, unit };
  for (const [r, op] of TRAILING) {
    const t = r.exec(after);
    if (t && done(after.slice(t[0].length))) return { kind: "compare", quantity, op, value, unit };
  }
  return null;
}

/** Comparators between two named quantities, as written between them (`covers`, `differs from`, `at least the`). */
const RELATIONS: Array<[RegExp, "<" | "<=" | ">" | ">=" | "!="]> = [
  [/^(?:is\s+)?(?:at most|not more than|no more than|up to)$/i, "<="],
  [/^(?:is\s+)?(?:at least|not less than|no less than)$|^covers?$/i, ">="],
  [/^(?:is\s+)?(?:above|more than|over|greater than|higher than)$|^exceeds?$/i, ">"],
  [/^(?:is\s+)?(?:below|less than|under|lower than)$/i, "<"],
  [/^(?:is\s+different from|differs? from|does not equal|is not equal to)$/i, "!="],
];
const RELATION_WORDS = String.raw`(?:is\s+)?(?:at most|not more than|no more than|up to|at least|not less than|no less than|above|more than|over|greater than|higher than|below|less than|under|lower than|different from|not equal to)|covers?|exceeds?|differs? from|does not equal`;

/** `A <comparator> B` where B is a named quantity, not a number: `the amount transferred differs from the duty amount`. */
function relation(quantity: string | null, text: string): Condition | null {
  if (/\d/.test(text)) return null;
  const re = new RegExp(String.raw`^(?:(.*?)\s+)?(${RELATION_WORDS})\s+(?:the\s+|its\s+|their\s+)?([a-z][a-z ]*?)\s*$`, "i");
  const m = re.exec(text.trim());
  if (!m) return null;
  // In a table cell the header is the subject: the cell starts with the comparator ("at least the
  // duty amount"); words before it ("exists and its balance covers …") are more than a comparison.
  if (quantity !== null && m[1]) return null;
  const subject = quantity ?? (m[1] ? clean(m[1]) : "");
  const other = clean(m[3] as string);
  const op = RELATIONS.find(([r]) => r.test((m[2] as string).replace(/\s+/g, " ")))?.[1];
  if (!op || subject.length === 0 || other.length === 0) return null;
  // Arithmetic or a hypothetical ("the balance less the payment would be below …") is not a named quantity.
  if (/\b(?:less|plus|minus|times|would|after|before|than|if)\b/i.test(`${subject} ${other}`)) return null;
  return { kind: "relate", quantity: subject, op, other };
}

function clean(words: string): string {
  return words.replace(/\([^)]*\)/g, " ").replace(/\b(?:the|a|an|its|their)\b/gi, " ").replace(/\s+/g, " ").trim();
}

/** A decision-table cell under header `quantity`: `any`, a comparison or range, or enumerated values (`3, 4 or 5`, `yes`). */
function cell(quantity: string, text: string): Condition | null {
  const t = text.trim().replace(/\.$/, "");
  if (/^(?:any|—|-|n\/a)$/i.test(t)) return { kind: "any" };
  const c = comparison(quantity, t) ?? relation(quantity, t);
  if (c) return c;
  if (/\d/.test(t) && !/^[\d\s,]+(?:or\s+\d+)?$/.test(t)) return null;
  // Enumerated values: `yes`, `standard`, `3, 4 or 5`, `contact or droplet`.
  const values = t.split(/\s*,\s*|\s+or\s+/i).map((v) => v.trim()).filter((v) => v.length > 0);
  return values.length > 0 ? { kind: "in", quantity, values } : null;
}

/** An event of the last call that the world decides (no state to evaluate). */
function event(text: string): Condition | null {
  if (/\b(?:refused|rejected|fails?|failed)\b/i.test(text)) return { kind: "event", event: "refused" };
  if (/\b(?:declines?|declined|does not approve|refuses)\b/i.test(text)) return { kind: "event", event: "declined" };
  if (/\bapproves?\b|\bapproved\b/i.test(text)) return { kind: "event", event: "approved" };
  return null;
}

/** Parse a branch's `when` as written; null when it is not in the condition language. */
export function parseCondition(when: string): Condition | null {
  const text = when.trim().replace(/\.$/, "");
  const not = /^otherwise \(not: (.*)\)$/s.exec(text);
  if (not) {
    const inner = parseCondition(not[1] as string);
    return inner ? { kind: "not", of: inner } : null;
  }
  if (/^otherwise$/i.test(text)) return null;
  // Decision-table rows: `Header: cell; Header: cell`, all must hold.
  if (/^[^:;]+:\s/.test(text) && !/^if\b/i.test(text)) {
    const parts = text.split(/;\s*/).map((p) => {
      const i = p.indexOf(":");
      return i < 0 ? null : cell(p.slice(0, i).replace(/\([^)]*\)/g, " ").trim(), p.slice(i + 1));
    });
    if (parts.some((p) => p === null)) return null;
    const of = (parts as Condition[]).filter((p) => p.kind !== "any");
    return of.length === 0 ? { kind: "any" } : of.length === 1 ? (of[0] as Condition) : { kind: "and", of };
  }
  const ev = event(text);
  if (ev) return ev;
  const q = quantityOf(text);
  const direct = comparison(q, text) ?? relation(null, text);
  if (direct) return direct;
  // `A and B`, `A or B` between full comparisons.
  for (const [sep, kind] of [[/\s+and\s+/i, "and"], [/\s+or\s+(?!more|less|above|below|higher|lower|over|under|later|earlier)/i, "or"]] as const) {
    const parts = text.split(sep);
    if (parts.length < 2) continue;
    const of = parts.map((p) => comparison(quantityOf(p), p) ?? relation(null, p));
    if (of.every((c) => c !== null)) return { kind, of: of as Condition[] };
  }
  return null;
}

/** The value a quantity names: the known name sharing most words with it (then the largest share of its words). */
export function lookup(quantity: string, known: ReadonlyMap<string, unknown>, numeric: boolean): unknown {
  const k = lookupName(quantity, known, numeric);
  return k === undefined ? undefined : known.get(k);
}

/** Whether a known name holds every word of a quantity (articles and short words aside). */
function namesAll(name: string, quantity: string): boolean {
  const parts = new Set(name.toLowerCase().split("_"));
  return quantity
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !/^(?:the|its|their|and|for)$/.test(w))
    .every((w) => parts.has(w));
}

/** The known name a quantity names (see `lookup`), or undefined. */
function lookupName(quantity: string, known: ReadonlyMap<string, unknown>, numeric: boolean): string | undefined {
  const words = new Set(quantity.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1));
  const scored = [...known.keys()]
    .filter((k) => (numeric ? typeof known.get(k) === "number" : typeof known.get(k) === "string" || typeof known.get(k) === "number"))
    .map((k) => {
      const parts = k.toLowerCase().split("_");
      const hit = parts.filter((w) => words.has(w)).length;
      return { k, hit, share: hit / parts.length };
    })
    .filter((x) => x.hit > 0)
    .sort((a, b) => b.hit - a.hit || b.share - a.share || a.k.length - b.k.length || a.k.localeCompare(b.k));
  return scored[0]?.k;
}

/**
 * Evaluate a condition on what is known (the live state's values and the customer's facts, by
 * name). Undefined when it cannot be decided from them: an event, or a quantity nothing names.
 */
export function evaluateCondition(c: Condition, known: ReadonlyMap<string, unknown>): boolean | undefined {
  switch (c.kind) {
    case "any":
      return true;
    case "event":
      return undefined;
    case "not": {
      const v = evaluateCondition(c.of, known);
      return v === undefined ? undefined : !v;
    }
    case "and":
    case "or": {
      const vs = c.of.map((x) => evaluateCondition(x, known));
      if (c.kind === "and") return vs.some((v) => v === false) ? false : vs.every((v) => v === true) ? true : undefined;
      return vs.some((v) => v === true) ? true : vs.every((v) => v === false) ? false : undefined;
    }
    case "relate": {
      // Two different known values: a quantity nothing names on its own (the amount transferred,
      // before the customer said it) must not fall back on the other side's name (duty_amount).
      // Each side must be named in full (every word of "available balance" in available_balance):
      // a quantity the state only holds by arithmetic ("the available limit" = limit − used) is not
      // stood in for by the nearest column.
      const ka = lookupName(c.quantity, known, true);
      const kb = lookupName(c.other, known, true);
      if (ka === undefined || kb === undefined || ka === kb || !namesAll(ka, c.quantity) || !namesAll(kb, c.other)) return undefined;
      const a = known.get(ka), b = known.get(kb);
      if (typeof a !== "number" || typeof b !== "number") return undefined;
      return c.op === "<" ? a < b : c.op === "<=" ? a <= b : c.op === ">" ? a > b : c.op === ">=" ? a >= b : Math.abs(a - b) > 1e-9;
    }
    case "compare":
    case "range": {
      const v = lookup(c.quantity, known, true);
      if (typeof v !== "number") return undefined;
      if (c.kind === "range") return v >= c.min && v <= c.max;
      return c.op === "<" ? v < c.value : c.op === "<=" ? v <= c.value : c.op === ">" ? v > c.value : v >= c.value;
    }
    case "in": {
      const v = lookup(c.quantity, known, false);
      if (v === undefined) return undefined;
      const s = String(v).toLowerCase();
      const yes = (x: string) => (/^(?:yes|true)$/i.test(x) ? ["1", "yes", "true"] : /^(?:no|false|none)$/i.test(x) ? ["0", "no", "false", "none", ""] : [x.toLowerCase()]);
      return c.values.some((x) => yes(x).includes(s));
    }
  }
}
