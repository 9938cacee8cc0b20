import type { RandomStream } from "../../core/random.js";

/** One piece of work the customer asks for: the procedure's title, what it acts on, and its key. */
export interface Ask {
  title: string;
  object: string;
  key: string;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** How customers introduce themselves; `{who}` and `{number}` are filled in. */
const GREETINGS = [
  "Hello, this is {who} (customer number {number}).",
  "Hi, {who} here, customer number {number}.",
  "Good morning. I'm calling for {who}; our customer number is {number}.",
  "This is {who}, customer number {number}.",
];

/** How one piece of work is asked for, as a sentence of its own; `{t}` is the procedure title (lower-case), `{o}` the object, `{k}` the key. */
const FIRST = [
  "I need your help today: please {t} for {k}.",
  "Could you {t} for {o} {k}?",
  "I would like you to {t}. It concerns {o} {k}.",
  "We need to {t} for {k}, please.",
];

/** How a later piece of work follows the previous one (never by joining titles with one fixed joiner). */
const LATER = [
  "After that, please {t} for {k}.",
  "Once that is done, could you {t} for {o} {k}?",
  "Then I also need you to {t} for {k}.",
  "Next, we need to {t}: it is {o} {k}.",
];

/** Endings of a first word that make a title a noun phrase ("Reassessment and re-triage"), not an instruction. */
const NOUN_ENDING = /(?:ment|tion|sion|al|ance|ence|ing|ure|age)$/;

/**
 * A title as an instruction: "Release an outgoing payment" stays as it is (lower-cased first
 * letter); a noun phrase gets a verb ("carry out the reassessment and re-triage"). An acronym keeps
 * its capitals ("the SBAR handover").
 */
export function asInstruction(title: string): string {
  const [first = "", second = ""] = title.split(/[\s,]+/);
  const acronym = first.length > 1 && first === first.toUpperCase() && /[A-Z]/.test(first);
  // "Secure the duty" is an instruction: a word with a noun's ending followed by an article is a verb.
  const noun = acronym || (NOUN_ENDING.test(first.toLowerCase()) && !/^(?:a|an|the|this|that|these|those|its|their)$/i.test(second));
  const phrase = acronym ? title : lowerFirst(title);
  return noun ? `carry out the ${phrase}` : phrase;
}

function fill(template: string, ask: Ask): string {
  return template.replace("{t}", asInstruction(ask.title)).replace("{o}", ask.object).replace("{k}", ask.key);
}

/**
 * The customer's opening request: a greeting and one sentence per piece of work, each phrasing
 * drawn from `rng` (the domain's seeded stream for this task), so the same task always reads the
 * same and different seeds read differently. Every sentence names the procedure's title words and
 * the key, which is what an agent needs to find the work; nothing else is fixed.
 */
export function openingRequest(who: string, number: string, asks: readonly Ask[], rng: RandomStream): string {
  const greeting = rng.pick(GREETINGS).replace("{who}", who).replace("{number}", number);
  const sentences = asks.map((a, i) => upperFirst(fill(rng.pick(i === 0 ? FIRST : LATER), a)));
  return [greeting, ...sentences].join(" ");
}
