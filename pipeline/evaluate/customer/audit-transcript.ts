import type { PrivateFact, Task, Trace, TraceEvent } from "../../schemas/index.js";
import type { UserSimFlag } from "../../schemas/evaluation-result.js";
import { canonicalJson } from "../../core/canonical-json.js";
import { openingFor } from "../ablation.js";

/**
 * The deterministic audit of a customer simulator's transcript (issue 13): it reads only the task
 * (as the episode ran it) and the trace, so `synth score` re-derives the same flags from stored
 * traces. Four findings, each with the event index and what was said or done:
 *
 * - `unprompted_disclosure`: a customer line states (or declares in `facts`) a private fact no
 *   earlier agent line asked about. Asking = naming one of the fact's `disclose_when` topics, its id
 *   or its parameter (case-insensitive, `_`/`-` read as spaces) — the rule the scripted customer
 *   answers by — or saying the value itself (a guess the customer confirms). The evaluator's
 *   opening is exempt: the first customer line when it is the scenario's opening request, or that
 *   request with every fact's statement (the full-disclosure ablation).
 * - `contradicted_fact`: a customer sentence names a fact's topic and states values of the fact's
 *   shape (numbers, codes, yes/no), none of which is the fact's value — codes the opening request or
 *   an agent line already held, and other facts' values, do not count (references echoed).
 * - `unrequested_action`: a customer-side call (approval or other) that no agent line asked for
 *   since the previous call on the same target: the proposal id, or else the operation's name or
 *   every non-private string argument, must occur in an agent line.
 * - `unagreed_approval`: a customer approval of a proposal whose current terms (its last `_proposals`
 *   row image in the trace) are not exactly terms the scenario agreed to, or of a proposal the trace
 *   never recorded.
 *
 * A renewal's statement (the scenario's correction of terms) said right after the customer's
 * approval is none of these: the scenario tells the customer to say it there.
 *
 * Value detection is by shape: a value is "stated" when a sentence holds it as a whole token (codes,
 * numbers with or without thousands separators) or, for free text, as a phrase; a value that is not
 * distinctive (a small number, a short word such as `yes` or `CN`) counts only in a sentence that
 * names the fact's topic. Free-text values are never judged contradicted (no shape to compare).
 */
export function auditTranscript(task: Task, trace: Trace): UserSimFlag[] {
  const flags: UserSimFlag[] = [];
  const facts = task.scenario.private_facts;
  const asked = new Set<string>();
  const disclosed = new Set<string>();
  const agentLines: Array<{ index: number; text: string }> = [];
  const lastActionOn = new Map<string, number>();
  const proposals = new Map<string, { kind: string; terms_json: string }>();
  // Words of the opening request and the agent's lines: a reference the customer echoes from them is not a contradiction.
  const heard = new Set(lowerWords(task.scenario.opening_request));
  const openings = new Set([task.scenario.opening_request, openingFor(task, "full-disclosure").text]);
  let openingSeen = false;

  for (const [i, e] of trace.events.entries()) {
    if (e.kind === "agent_message" && e.actor === "agent") {
      const text = e.text ?? "";
      agentLines.push({ index: e.index, text });
      for (const f of factsAsked(task, text)) asked.add(f);
      // A value the agent itself said (a guess to confirm) is not the customer's disclosure.
      for (const f of factsStated(task, text)) asked.add(f);
      for (const w of lowerWords(text)) heard.add(w);
    } else if (e.kind === "customer_message" && e.actor === "customer") {
      const text = e.text ?? "";
      if (!openingSeen && openings.has(text)) {
        openingSeen = true;
        for (const f of factsStated(task, text)) disclosed.add(f);
        for (const f of e.facts) disclosed.add(f);
        continue;
      }
      openingSeen = true;
      // A correction of terms the customer just approved (its scenario's renewal, said right after
      // the approval) is what the scenario tells it to say: not a disclosure, not a contradiction.
      const before = trace.events[i - 1];
      const renewal = (task.scenario.renewals ?? []).find((r) => r.statement === text);
      if (renewal && before?.kind === "approval" && before.actor === "customer" && before.status === "executed") {
        for (const f of facts.filter((x) => (x.param ?? x.id) === renewal.param)) disclosed.add(f.id);
        continue;
      }
      const told = new Set([...e.facts.filter((id) => facts.some((f) => f.id === id)), ...factsStated(task, text)]);
      for (const id of [...told].sort()) {
        if (!asked.has(id) && !disclosed.has(id)) flags.push({ kind: "unprompted_disclosure", event: e.index, detail: `disclosed private fact "${id}" without being asked for it` });
        disclosed.add(id);
      }
      for (const c of factsContradicted(task, text, heard)) {
        flags.push({ kind: "contradicted_fact", event: e.index, detail: `stated ${c.stated.join(", ")} for private fact "${c.fact.id}", whose value is ${JSON.stringify(c.fact.value)}` });
      }
    } else if (e.actor === "customer" && e.kind !== "wait") {
      flags.push(...auditAction(task, e, agentLines, lastActionOn, proposals));
    }
    for (const c of e.changes) {
      if (c.table === "_proposals" && c.after !== null) proposals.set(String(c.key), { kind: String(c.after.kind), terms_json: String(c.after.terms_json) });
    }
  }
  return flags;
}

/** Flags of one customer-side call: unrequested, and for approvals, terms not agreed. */
function auditAction(
  task: Task,
  e: TraceEvent,
  agentLines: ReadonlyArray<{ index: number; text: string }>,
  lastActionOn: Map<string, number>,
  proposals: ReadonlyMap<string, { kind: string; terms_json: string }>,
): UserSimFlag[] {
  const out: UserSimFlag[] = [];
  const proposal = typeof e.args.proposal_id === "string" ? e.args.proposal_id : null;
  const target = proposal ?? e.name;
  const since = lastActionOn.get(target) ?? 0;
  lastActionOn.set(target, e.index);
  const lines = agentLines.filter((l) => l.index > since && l.index < e.index);
  const requested = lines.some((l) => (proposal !== null ? mentions(l.text, proposal) : requestsOperation(task, e, l.text)));
  if (!requested) {
    const what = proposal !== null ? `${e.name} of ${proposal}` : `${e.name}(${canonicalJson(e.args)})`;
    out.push({ kind: "unrequested_action", event: e.index, detail: `performed ${what} without an agent request since ${since === 0 ? "the start" : `event ${since}`}` });
  }
  if (proposal !== null && (e.kind === "approval" || e.kind === "fault")) {
    const p = proposals.get(proposal);
    if (!p) {
      out.push({ kind: "unagreed_approval", event: e.index, detail: `approved ${proposal}, a proposal the transcript never recorded, so its terms were never agreed` });
    } else {
      const terms = canonicalJson(JSON.parse(p.terms_json));
      const agreed = task.scenario.approves.some((a) => a.kind === p.kind && canonicalJson(a.terms) === terms);
      if (!agreed) out.push({ kind: "unagreed_approval", event: e.index, detail: `approved ${proposal} (${p.kind}) on terms ${terms}, which the customer never agreed to` });
    }
  }
  return out;
}

/** An agent line asks for a customer-side operation by its name, or by every argument it can know. */
function requestsOperation(task: Task, e: TraceEvent, text: string): boolean {
  if (mentions(text, e.name)) return true;
  const privateValues = new Set(task.scenario.private_facts.map((f) => String(f.value)));
  const known = Object.values(e.args).filter((v): v is string => typeof v === "string" && v !== "" && !privateValues.has(v));
  return known.length > 0 && known.every((v) => mentions(text, v));
}

/** Ids of the private facts whose topic (`disclose_when`, id or parameter) an agent line names. */
export function factsAsked(task: Task, text: string): string[] {
  const t = loose(text);
  return task.scenario.private_facts.filter((f) => topicsOf(f).some((k) => containsPhrase(t, k))).map((f) => f.id);
}

/** Ids of the private facts whose value a customer line states (see the shape rules above). */
export function factsStated(task: Task, text: string): string[] {
  const out = new Set<string>();
  for (const s of sentences(text)) {
    const named = namedFacts(task.scenario.private_facts, s);
    for (const f of task.scenario.private_facts) {
      if (f.value === null) continue;
      // A list is stated when every item is (the items to return, in any order).
      const items = Array.isArray(f.value) ? f.value : [f.value];
      if (items.length === 0 || !items.every((v) => holdsValue(s, v))) continue;
      if (items.some((v) => distinctive(v)) || named.has(f.id)) out.add(f.id);
    }
  }
  // A value said in the world's words ("The reason? We no longer want it made." for client_request)
  // holds no token of the value: the fact's own statement, or its answer after the question mark, is.
  const all = loose(text);
  for (const f of task.scenario.private_facts) {
    const answer = loose(/\?\s+(.+)$/s.exec(f.statement)?.[1] ?? "");
    if (all.includes(loose(f.statement)) || (answer.trim().length >= 12 && all.includes(answer))) out.add(f.id);
  }
  return task.scenario.private_facts.filter((f) => out.has(f.id)).map((f) => f.id);
}

/**
 * Facts a customer line names and gives a different value of the same shape for. For code-valued
 * facts, codes that occur in `context` (the opening request, the agent's lines) or are another fact's
 * distinctive value are references the customer echoes, not values it states for the fact.
 */
export function factsContradicted(task: Task, text: string, echoed: ReadonlySet<string> = new Set()): Array<{ fact: PrivateFact; stated: string[] }> {
  const found = new Map<string, { fact: PrivateFact; stated: Set<string> }>();
  for (const s of sentences(text)) {
    const named = namedFacts(task.scenario.private_facts, s);
    for (const f of task.scenario.private_facts) {
      // Lists are not compared item by item for contradictions: a customer may name a subset first.
      if (!named.has(f.id) || f.value === null || Array.isArray(f.value)) continue;
      const code = shapeOf(f.value) === "code";
      const refs = code ? others(task, f) : [];
      const candidates = sameShape(s, f.value)?.filter((w) => !code || !(echoed.has(w.toLowerCase()) || refs.some((v) => holdsValue(sentence(w), v)))) ?? null;
      if (candidates === null || candidates.length === 0 || holdsValue(s, f.value)) continue;
      const entry = found.get(f.id) ?? { fact: f, stated: new Set<string>() };
      for (const c of candidates) entry.stated.add(c);
      found.set(f.id, entry);
    }
  }
  return [...found.values()].map((x) => ({ fact: x.fact, stated: [...x.stated] }));
}

// ---- text helpers: pure, locale-free ----

/** Lower case, `_` and `-` as spaces, one space between words (for topics and names). */
function loose(s: string): string {
  // A full stop ends a sentence; only a decimal point (between digits) stays.
  return ` ${s.normalize("NFKC").toLowerCase().replace(/[_\-]+/g, " ").replace(/(?<!\d)\.|\.(?!\d)/g, " ").replace(/[^\p{L}\p{N}.]+/gu, " ").replace(/\s+/g, " ").trim()} `;
}

function containsPhrase(looseText: string, phrase: string): boolean {
  const p = loose(phrase);
  return p !== "  " && looseText.includes(p);
}

/** `phrase` occurs as a whole token (PR-0001 is not mentioned by PR-00012), or as loose words. */
function mentions(text: string, phrase: string): boolean {
  const exact = new RegExp(`(?<![\\p{L}\\p{N}_-])${phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_-])`, "iu");
  return exact.test(text) || containsPhrase(loose(text), phrase);
}

function topicsOf(f: PrivateFact): string[] {
  return [...f.disclose_when, f.id, ...(f.param !== undefined ? [f.param] : [])];
}

// Loose forms of a fact's topics, computed once per fact object (tasks are immutable while audited).
const looseTopicsMemo = new WeakMap<PrivateFact, string[]>();
function looseTopics(f: PrivateFact): string[] {
  let t = looseTopicsMemo.get(f);
  if (!t) looseTopicsMemo.set(f, (t = topicsOf(f).map(loose).filter((p) => p !== "  ")));
  return t;
}

/**
 * Facts a sentence names by topic. A topic occurrence inside the occurrence of a longer topic of
 * another fact does not count ("reason" in "reason code" names the reason code, not the reason).
 */
function namedFacts(facts: readonly PrivateFact[], sentence: Sentence): Set<string> {
  const t = sentence.loose;
  const hits: Array<{ id: string; start: number; end: number }> = [];
  for (const f of facts) {
    for (const p of looseTopics(f)) {
      for (let i = t.indexOf(p); i >= 0; i = t.indexOf(p, i + 1)) hits.push({ id: f.id, start: i, end: i + p.length });
    }
  }
  const named = new Set<string>();
  for (const h of hits) {
    const covered = hits.some((o) => o.id !== h.id && o.end - o.start > h.end - h.start && o.start <= h.start && o.end >= h.end);
    if (!covered) named.add(h.id);
  }
  return named;
}

/** One sentence with its words and loose form, each computed once. */
interface Sentence {
  words: string[];
  loose: string;
}

function sentence(text: string): Sentence {
  return { words: words(text), loose: loose(text) };
}

/** The sentences of a text; a question answered by the next sentence ("The reason code? It was paid twice (DUPL).") is one. */
function sentences(text: string): Sentence[] {
  const parts = text.split(/(?<=[.!?;])\s+|\n+/).filter((s) => s.trim() !== "");
  const joined: string[] = [];
  for (const p of parts) {
    const last = joined.at(-1);
    if (last !== undefined && last.trimEnd().endsWith("?") && !p.trimEnd().endsWith("?")) joined[joined.length - 1] = `${last} ${p}`;
    else joined.push(p);
  }
  return joined.map(sentence);
}

function lowerWords(text: string): string[] {
  return words(text).map((w) => w.toLowerCase());
}

/** The distinctive values of the other private facts (a sentence may name one fact and quote another's reference). */
function others(task: Task, f: PrivateFact): Array<string | number | boolean> {
  return task.scenario.private_facts.flatMap((o) => (o.id === f.id || o.value === null ? [] : Array.isArray(o.value) ? o.value : [o.value])).filter((v) => distinctive(v));
}

/** Whitespace-separated words with surrounding punctuation removed (inner `-`, `_`, `.`, `/` kept). */
function words(sentence: string): string[] {
  return sentence
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}+\-−]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => w !== "");
}

const NUMBER = /^[+\-−]?(?:\d{1,3}(?:[,'’]\d{3})+|\d+)(?:\.\d+)?$/;

function numberOf(word: string): number | null {
  const w = word.replace(/^[€$£]/, "");
  if (!NUMBER.test(w)) return null;
  return Number(w.replace(/[,'’]/g, "").replace("−", "-"));
}

/** A code: letters and digits mixed, an inner `_`, a hyphenated token with a digit, or an upper-case word of 2+ letters. */
function isCode(word: string): boolean {
  if (numberOf(word) !== null) return false;
  return (/\p{L}/u.test(word) && /\d/.test(word)) || /[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(word) || (/\d/.test(word) && /-/.test(word)) || /^\p{Lu}{2,}$/u.test(word);
}

const YES_NO = new Set(["yes", "no"]);

type Shape = "number" | "code" | "yesno" | "text";

function shapeOf(value: string | number | boolean): Shape {
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "yesno";
  if (YES_NO.has(value.toLowerCase())) return "yesno";
  return /\s/.test(value.trim()) ? "text" : "code";
}

function holdsValue(s: Sentence, value: string | number | boolean): boolean {
  const shape = shapeOf(value);
  const ws = s.words;
  if (shape === "number") return ws.some((w) => numberOf(w) === value);
  if (shape === "yesno") {
    const v = typeof value === "boolean" ? (value ? "yes" : "no") : String(value).toLowerCase();
    return ws.some((w) => w.toLowerCase() === v);
  }
  if (shape === "code") return ws.some((w) => w.toLowerCase() === String(value).toLowerCase());
  return s.loose.includes(loose(String(value)));
}

/** Values of the value's shape in a sentence; null when the shape cannot be compared (free text). */
function sameShape(s: Sentence, value: string | number | boolean): string[] | null {
  const shape = shapeOf(value);
  const ws = s.words;
  if (shape === "number") return ws.filter((w) => numberOf(w) !== null);
  if (shape === "yesno") return ws.filter((w) => YES_NO.has(w.toLowerCase()));
  if (shape === "code") return ws.filter(isCode);
  return null;
}

/** A value too specific to occur by chance: a code of 4+ characters, a number of 3+ digits or with decimals, a phrase of 12+ characters. */
function distinctive(value: string | number | boolean): boolean {
  if (typeof value === "boolean") return false;
  if (typeof value === "number") return Math.abs(value) >= 100 || !Number.isInteger(value);
  const shape = shapeOf(value);
  if (shape === "code") return value.length >= 4 && isCode(value);
  return shape === "text" && value.length >= 12;
}
