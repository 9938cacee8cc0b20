import type { EpisodeResult } from "../../schemas/evaluation-result.js";

/** Key of a task across domains (task ids are unique only inside their domain). */
export function taskKey(r: Pick<EpisodeResult, "domain" | "task">): string {
  return `${r.domain}/${r.task}`;
}

/** Key of one episode: task, condition and run. */
export function episodeKey(r: Pick<EpisodeResult, "domain" | "task" | "condition" | "run">): string {
  return `${taskKey(r)}/${r.condition}/${r.run}`;
}

/**
 * Results in one canonical order (domain, task, condition, run), so every figure is the same
 * whatever order concurrent episodes finished in.
 */
export function inEpisodeOrder(results: readonly EpisodeResult[]): EpisodeResult[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...results].sort((a, b) => cmp(a.domain, b.domain) || cmp(a.task, b.task) || cmp(a.condition, b.condition) || a.run - b.run);
}

/** Round a figure to 6 decimals, so files show what the figure is and not float noise. */
export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
