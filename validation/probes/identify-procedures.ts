import type { SopWorkflow } from "../../pipeline/schemas/index.js";
import { contentWords, overlap } from "./words.js";

/**
 * The procedures a request refers to, by the words their titles share with it. The best match comes
 * first (most shared words, then a title whose verb the request uses, then the largest share of
 * its title); another title is added when it
 * shares a word no chosen title explains and either shares two words or starts with a verb the
 * request uses ("Fund an operating account" for "move funds"). So "release an outgoing payment"
 * does not also pick "cancel a payment that has not been released". In the order the request
 * mentions them.
 */
export function identifyProcedures(workflows: readonly SopWorkflow[], text: string): SopWorkflow[] {
  const request = withoutConnective(text);
  const said = new Set(contentWords(request).map((w) => w.stem));
  const scored = workflows
    .map((w) => {
      const o = overlap(w.title, request);
      const title = contentWords(w.title);
      return { w, ...o, share: o.count / Math.max(1, new Set(title.map((t) => t.stem)).size), verb: title[0] !== undefined && said.has(title[0].stem) };
    })
    .filter((s) => s.count > 0);
  scored.sort((a, b) => b.count - a.count || Number(b.verb) - Number(a.verb) || b.share - a.share || a.first - b.first);
  const chosen: typeof scored = [];
  const covered = new Set<string>();
  for (const s of scored) {
    const fresh = [...s.stems].some((x) => !covered.has(x));
    if (chosen.length > 0 && !(fresh && (s.count >= 2 || s.verb))) continue;
    chosen.push(s);
    for (const x of s.stems) covered.add(x);
  }
  return chosen.sort((a, b) => a.first - b.first).map((s) => s.w);
}

/**
 * A sentence without its opening discourse marker ("Next, we need to cancel …", "After that, …"):
 * the marker orders the work and names none ("next" is not the next business day).
 */
function withoutConnective(text: string): string {
  return text.replace(/^\s*(?:next|then|after that|afterwards|also|finally|lastly|first(?:ly)?|second(?:ly)?|in addition|besides|and)\s*,\s*/i, "");
}

/** A piece of the request and the procedures it asks for. */
export interface RequestedWork {
  text: string;
  procedures: SopWorkflow[];
}

/**
 * The work a request asks for, read by meaning rather than by a template: the request is cut into
 * sentences (ordinary punctuation, no designer's joiner), each sentence's procedures are found by
 * the words it shares with procedure titles (with the title's verb or two of its words). A sentence
 * that asks for nothing adds to the piece before it (its keys), or is left out before the first (a
 * greeting). In the order the request mentions them.
 */
export function requestedWork(workflows: readonly SopWorkflow[], request: string): RequestedWork[] {
  const sentences = request.split(/(?<=[.?!])\s+(?=[A-Z])/);
  // Asking for work takes an action: the title's verb, or two of its words. A sentence that only
  // names an object ("It concerns account ACC-001.") says more about the work before it.
  const asked = (sentence: string): SopWorkflow[] => {
    const text = withoutConnective(sentence);
    const said = new Set(contentWords(text).map((w) => w.stem));
    return identifyProcedures(workflows, text).filter((w) => {
      const title = contentWords(w.title);
      return (title[0] !== undefined && said.has(title[0].stem)) || overlap(w.title, text).count >= 2;
    });
  };
  const out: RequestedWork[] = [];
  for (const sentence of sentences) {
    // One sentence may chain pieces of work ("release X, and then move Y"): its clauses are read
    // apart when every clause asks for work of its own; otherwise the sentence is one piece.
    const clauses = sentence.split(/,?\s+and then\s+|;\s*(?:and\s+)?then\s+|,\s+then\s+/i).map((text) => ({ text, procedures: asked(text) }));
    const pieces = clauses.length > 1 && clauses.every((c) => c.procedures.length > 0) ? clauses : clauses.length > 1 ? [{ text: sentence, procedures: asked(sentence) }] : clauses;
    for (const { text, procedures } of pieces) {
      const last = out.at(-1);
      if (procedures.length > 0) out.push({ text, procedures });
      else if (last) last.text = `${last.text} ${text}`;
    }
  }
  // A request whose sentences name no procedure alone is read whole.
  if (out.length === 0) {
    const whole = identifyProcedures(workflows, request);
    return whole.length > 0 ? [{ text: request, procedures: whole }] : [];
  }
  return out;
}
