import { numbersIn } from "./values.js";
import { evaluateCondition, parseCondition } from "../../pipeline/sop/condition.js";

/** What a probe has seen that a decision's condition may be about. */
export interface ConditionEnv {
  /** Values bound by name (request and results). */
  state: ReadonlyMap<string, unknown>;
  /** The last call: its status, result and rejection reason. */
  last: { status: string; result: unknown; reason: string } | null;
  /** Whether the last approval asked for was given; null when none was asked for. */
  approved: boolean | null;
}

type Verdict = boolean | undefined;

const COMPARISONS: Array<[RegExp, (v: number, n: number) => boolean]> = [
  [/\b(?:up to and including|at most|not more than|no more than)\s+(?:[A-Z]{3}\s*)?([\d,.]+)/i, (v, n) => v <= n],
  [/\b(?:at least|not less than)\s+(?:[A-Z]{3}\s*)?([\d,.]+)/i, (v, n) => v >= n],
  [/\b(?:above|more than|over|exceeds?|greater than)\s+(?:[A-Z]{3}\s*)?([\d,.]+)/i, (v, n) => v > n],
  [/\b(?:below|less than|under)\s+(?:[A-Z]{3}\s*)?([\d,.]+)/i, (v, n) => v < n],
  [/([\d,.]+)\s+or\s+(?:more|above)\b/i, (v, n) => v >= n],
  [/([\d,.]+)\s+or\s+(?:less|below)\b/i, (v, n) => v <= n],
];

/**
 * The bound value a condition talks about: the numeric name with the most of its words in the
 * subject text, then the larger share of its words (`amount_eur` for "EUR equivalent" rather than
 * `limit_used_eur`).
 */
function subject(text: string, state: ReadonlyMap<string, unknown>): number | undefined {
  const words = new Set(text.toLowerCase().split(/[^a-z]+/));
  const scored = [...state.keys()]
    .filter((k) => typeof state.get(k) === "number")
    .map((k) => {
      const parts = k.split("_");
      const hit = parts.filter((w) => words.has(w)).length;
      return { k, hit, share: hit / parts.length };
    })
    .filter((x) => x.hit > 0)
    .sort((a, b) => b.hit - a.hit || b.share - a.share || a.k.length - b.k.length);
  const v = scored[0] === undefined ? undefined : state.get(scored[0].k);
  return typeof v === "number" ? v : undefined;
}

function numeric(subjectText: string, rangeText: string, env: ConditionEnv): Verdict {
  const v = subject(subjectText, env.state);
  if (v === undefined) return undefined;
  for (const [re, test] of COMPARISONS) {
    const m = re.exec(rangeText);
    const n = m ? numbersIn(m[1] as string)[0] : undefined;
    if (n !== undefined) return test(v, n);
  }
  return undefined;
}

/** Whether the last result shows `word` as one of its values. */
function shows(word: string, env: ConditionEnv): boolean {
  const r = env.last?.result;
  if (r === null || typeof r !== "object") return false;
  return Object.values(r as Record<string, unknown>).some((v) => typeof v === "string" && v.toLowerCase() === word.toLowerCase());
}

const BOILERPLATE = new Set("the a an is are was were if because of it its has have been release payment call request refused rejected declined still".split(" "));

/**
 * Evaluate a decision branch's condition as written, from what the probe has seen: numeric
 * comparisons on a bound value (`Amount (EUR): above 10,000.00`, `the amount is above EUR 10,000`),
 * an approval given or not, the last call refused (for the reason named), the last result showing a
 * value. Undefined when the text is none of these: the probe then follows the document order.
 */
export function evaluate(condition: string, env: ConditionEnv): Verdict {
  // The documented condition language first (comparisons, ranges, enumerated cells, `any`), on the
  // values the probe has bound; events of the last call are read below.
  const parsed = parseCondition(condition);
  if (parsed && parsed.kind !== "event" && !(parsed.kind === "not" && parsed.of.kind === "event")) {
    const v = evaluateCondition(parsed, env.state);
    if (v !== undefined) return v;
  }
  const not = /^otherwise \(not: (.*)\)$/.exec(condition);
  if (not) {
    const v = evaluate(not[1] as string, env);
    return v === undefined ? undefined : !v;
  }
  // Decision-table rows: `Header: cell; Header: cell`, all must hold.
  if (/^[^:]+:\s/.test(condition) && !/\bif\b/i.test(condition)) {
    const parts = condition.split(";").map((c) => c.split(/:\s/));
    const verdicts = parts.map(([h, cell]) => numeric(h ?? "", cell ?? "", env));
    if (verdicts.some((v) => v === false)) return false;
    return verdicts.every((v) => v === true) ? true : undefined;
  }
  const n = numeric(condition, condition, env);
  if (n !== undefined) return n;
  if (/\bapproved?\b/i.test(condition) && env.approved !== null) return /\bnot\b|\bdeclined?\b|\brefused?\b/i.test(condition) ? !env.approved : env.approved;
  if (/\b(refused|rejected|declined|fails?)\b/i.test(condition)) {
    if (!env.last) return undefined;
    if (env.last.status !== "rejected") return false;
    const specific = condition.toLowerCase().split(/[^a-z-]+/).filter((w) => w.length > 3 && !BOILERPLATE.has(w));
    return specific.length === 0 || specific.some((w) => env.last?.reason.toLowerCase().includes(w));
  }
  const m = /\bshows? as ["“]?([a-z_]+)/i.exec(condition) ?? /\bis (?:now )?["“]([a-z_]+)["”]/i.exec(condition);
  if (m) return env.last ? shows(m[1] as string, env) : undefined;
  return undefined;
}
