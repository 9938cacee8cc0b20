import type { DomainSummary } from "./collect-domain.js";

/** Figures of a release that both the manifest and the datasheet state. */
export interface ReleaseStats {
  documents: number;
  tasks: number;
  checks: number;
  /** Difficulty label → released tasks (`uncalibrated` when no probe panel labelled it). */
  difficulty: Record<string, number>;
  /** Violation traces run on released tasks, per the validation reports. */
  mutants: { total: number; killed: number; byOperator: Record<string, { total: number; killed: number }> };
  /** Surviving mutants of released tasks: `domain/task: operator`. */
  survivors: string[];
  /** Dropped tasks with their reasons: `domain/task: reason`. */
  dropped: string[];
  /** Mutants the reports list for released tasks that have no stored trace. */
  unstoredMutants: number;
}

/** Count what a set of collected domains holds. */
export function releaseStats(domains: readonly DomainSummary[]): ReleaseStats {
  const stats: ReleaseStats = { documents: 0, tasks: 0, checks: 0, difficulty: {}, mutants: { total: 0, killed: 0, byOperator: {} }, survivors: [], dropped: [], unstoredMutants: 0 };
  for (const d of domains) {
    stats.documents += d.documents;
    stats.tasks += d.tasks.length;
    let recorded = 0;
    const entries = new Map(d.report.tasks.map((x) => [x.task, x]));
    for (const t of d.tasks) {
      stats.checks += t.checks;
      const v = entries.get(t.id);
      const label = t.difficulty ?? v?.difficulty ?? "uncalibrated";
      stats.difficulty[label] = (stats.difficulty[label] ?? 0) + 1;
      for (const m of v?.mutants ?? []) {
        recorded += 1;
        stats.mutants.total += 1;
        const op = (stats.mutants.byOperator[m.operator] ??= { total: 0, killed: 0 });
        op.total += 1;
        if (m.killed) {
          stats.mutants.killed += 1;
          op.killed += 1;
        } else stats.survivors.push(`${d.id}/${t.id}: ${m.operator}`);
      }
    }
    stats.unstoredMutants += Math.max(0, recorded - d.violations);
    for (const t of d.report.tasks) if (t.status === "dropped") stats.dropped.push(`${d.id}/${t.task}: ${t.drop_reason ?? "no reason recorded"}`);
  }
  return stats;
}

/** `0.875 (7 of 8)`, or `n/a` when nothing was counted. */
export function rate(killed: number, total: number): string {
  return total === 0 ? "n/a" : `${(killed / total).toFixed(3)} (${killed} of ${total})`;
}
