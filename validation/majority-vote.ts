// Kept for the coming agent evaluator (model-judged parts); nothing in the build calls it yet.
import { canonicalJson } from "../pipeline/core/canonical-json.js";
import { FoundryError } from "../pipeline/core/errors.js";

/** The outcome of a vote among judgments. */
export interface Vote<T> {
  /** The judgment more than half of the voters gave; null without a strict majority. */
  winner: T | null;
  /** How many gave the winner (or the most common judgment, when there is none). */
  votes: number;
  total: number;
  /** votes / total. */
  agreement: number;
}

/**
 * Majority of three or more judgments, for the parts a model judges (never the primary score,
 * which is the deterministic checks'). Judgments are equal when their canonical JSON is, unless
 * `key` says otherwise. A strict majority (more than half) wins; otherwise there is no winner.
 */
export function majorityVote<T>(judgments: readonly T[], key: (j: T) => string = (j) => canonicalJson(j)): Vote<T> {
  if (judgments.length < 3) {
    throw new FoundryError("MAJORITY_TOO_FEW", `a majority vote needs at least 3 judgments, got ${judgments.length}`, { path: "judgments" }, judgments.length);
  }
  const counts = new Map<string, { first: T; n: number }>();
  for (const j of judgments) {
    const k = key(j);
    const c = counts.get(k);
    if (c) c.n++;
    else counts.set(k, { first: j, n: 1 });
  }
  // Ties between equally common judgments go to the one given first: deterministic, never a winner anyway.
  const top = [...counts.values()].reduce((a, b) => (b.n > a.n ? b : a));
  const total = judgments.length;
  return { winner: top.n * 2 > total ? top.first : null, votes: top.n, total, agreement: top.n / total };
}

/**
 * Ask a judge `n` times (default 3) and vote. `n` must be at least 3; the calls run one after
 * another so a scripted or rate-limited judge sees them in order.
 */
export async function judgeByMajority<T>(judge: (round: number) => Promise<T>, n = 3, key?: (j: T) => string): Promise<Vote<T>> {
  if (!Number.isInteger(n) || n < 3) throw new FoundryError("USAGE", `Expected \`n\` to be a whole number from 3 and up, got \`${n}\``, { path: "n" }, n);
  const out: T[] = [];
  for (let round = 1; round <= n; round++) out.push(await judge(round));
  return majorityVote(out, key);
}
