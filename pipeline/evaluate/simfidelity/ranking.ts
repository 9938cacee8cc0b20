import type { RankedAgent, RankedPair } from "./report-schema.js";

/** Which of two rates ranks higher; equal rates are a tie; null when either rate is null. */
function order(a: number | null, b: number | null): RankedPair["executable"] {
  if (a === null || b === null) return null;
  return a > b ? "a" : a < b ? "b" : "tie";
}

/**
 * Pairwise ranking agreement: every unordered pair of agents (in the given order) is ordered by
 * strict success under each environment; the pair agrees when both orders are the same — a tie
 * agrees only with a tie. Pairs with a null rate are left out of the figure. The figure is
 * agreeing pairs ÷ pairs compared, null when none could be compared.
 */
export function rankingAgreement(agents: readonly RankedAgent[]): { pairs: RankedPair[]; agreement: number | null } {
  const pairs: RankedPair[] = [];
  for (let i = 0; i < agents.length; i++) {
    for (let j = i + 1; j < agents.length; j++) {
      const a = agents[i]!;
      const b = agents[j]!;
      const executable = order(a.executable, b.executable);
      const simulated = order(a.simulated, b.simulated);
      pairs.push({ a: a.agent, b: b.agent, executable, simulated, agrees: executable === null || simulated === null ? null : executable === simulated });
    }
  }
  const compared = pairs.filter((p) => p.agrees !== null);
  return { pairs, agreement: compared.length === 0 ? null : compared.filter((p) => p.agrees).length / compared.length };
}
