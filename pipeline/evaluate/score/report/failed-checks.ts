import type { AcceptanceCheck, EpisodeResult, Task } from "../../../schemas/index.js";
import { inEpisodeOrder, taskKey } from "../episode-order.js";

/** One row of the report's failed-check table: a check of a task and the episodes it failed in. */
export interface FailedCheckRow {
  task: string;
  check: string;
  group: string;
  kind: string;
  /** Completed episodes of the task in which the check failed, out of all completed ones. */
  failed: number;
  episodes: number;
  /** Conditions in which it failed, sorted. */
  conditions: string[];
  /** The reason given in the first failing episode (canonical episode order). */
  reason: string;
  /** The clause or customer requirement the check enforces. */
  enforces: string;
}

/** What a check enforces, as one line: rule and clause with document, version and lines, or the customer requirement. */
export function enforcedBy(check: AcceptanceCheck | undefined): string {
  if (!check) return "(check not in the release)";
  const p = check.provenance;
  if (p.source === "customer") return `customer requirement ${p.at.requirement} of task ${p.at.task}`;
  const clause = p.at.clause ? ` §${p.at.clause}` : "";
  return `rule ${p.rule}: ${p.at.document}@${p.at.version}${clause} (lines ${p.at.line_start}–${p.at.line_end})`;
}

/** Failed checks over completed episodes, one row per task and check, in task then check order. */
export function failedChecks(results: readonly EpisodeResult[], tasks: readonly Task[]): FailedCheckRow[] {
  const checksOf = new Map<string, Map<string, AcceptanceCheck>>();
  for (const t of tasks) checksOf.set(taskKey({ domain: t.domain, task: t.id }), new Map([...t.checks.goal, ...t.checks.process, ...t.checks.protection].map((c) => [c.id, c])));
  const rows = new Map<string, FailedCheckRow>();
  const episodes = new Map<string, number>();
  for (const r of inEpisodeOrder(results)) {
    if (r.status !== "completed") continue;
    const key = taskKey(r);
    episodes.set(key, (episodes.get(key) ?? 0) + 1);
    for (const c of r.checks) {
      if (c.passed) continue;
      const id = `${key}\u0000${c.check}`;
      const row = rows.get(id) ?? { task: key, check: c.check, group: c.group, kind: c.kind, failed: 0, episodes: 0, conditions: [], reason: c.reason, enforces: enforcedBy(checksOf.get(key)?.get(c.check)) };
      row.failed++;
      if (!row.conditions.includes(r.condition)) row.conditions = [...row.conditions, r.condition].sort();
      rows.set(id, row);
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows.values()].map((row) => ({ ...row, episodes: episodes.get(row.task) ?? 0 })).sort((a, b) => cmp(a.task, b.task) || cmp(a.check, b.check));
}
