import type { DomainSummary } from "./collect-domain.js";
import { horizonFigures, qualityFigures } from "./quality-figures.js";
import { rate } from "./release-stats.js";

function table(head: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

const pct = (n: number, of: number) => (of === 0 ? "n/a" : `${n}/${of} (${Math.round((100 * n) / of)}%)`);

/**
 * The datasheet's "Before the release filter" section: kill rate over every generated task with
 * each survivor and what repair did about it, per-operator figures, measured probe solve rates over
 * the released tasks, and the horizon distribution of the released golden traces. Every number is
 * computed from the domains' validation.json and golden traces (qualityFigures, horizonFigures).
 */
export function qualityFiguresSection(domains: readonly DomainSummary[]): string[] {
  const per = domains.map((d) => ({ d, q: qualityFigures(d.report), h: horizonFigures(d.horizons) }));
  const operators = [...new Set(per.flatMap(({ q }) => Object.keys(q.byOperator)))].sort();
  const probes = [...new Set(per.flatMap(({ q }) => Object.keys(q.probes)))].sort();
  const sum = (f: (q: (typeof per)[number]["q"]) => number) => per.reduce((n, { q }) => n + f(q), 0);
  const survivors = per.flatMap(({ d, q }) => q.survivors.map((s) => [d.id, s.task, s.operator, s.outcome]));
  const all = horizonFigures(domains.flatMap((d) => d.horizons));
  return [
    "## Before the release filter",
    "",
    `Kill rate of violation traces over all ${sum((q) => q.generated)} generated task(s), dropped ones included (each task's last verification): ${rate(sum((q) => q.mutants.killed), sum((q) => q.mutants.total))}.`,
    "",
    ...(survivors.length > 0 ? [table(["domain", "task", "operator", "what happened"], survivors), ""] : ["No violation trace survived on any generated task.", ""]),
    "Per mutation operator (all generated tasks; repaired = a repair made after its mutant survived):",
    "",
    table(["operator", "applied", "killed", "repaired", "not applicable"], operators.map((o) => [o, sum((q) => q.byOperator[o]?.applied ?? 0), sum((q) => q.byOperator[o]?.killed ?? 0), sum((q) => q.byOperator[o]?.repaired ?? 0), sum((q) => q.byOperator[o]?.not_applicable ?? 0)])),
    "",
    "Probe solve rates, measured: released tasks each probe solved, of those it ran on.",
    "",
    table(["domain", ...probes], per.map(({ d, q }) => [d.id, ...probes.map((p) => pct(q.probes[p]?.solved ?? 0, q.probes[p]?.runs ?? 0))])),
    "",
    "Horizon: agent events per released golden trace.",
    "",
    table(
      ["domain", "tasks", "median", "quartiles", "max", "≥ 40 events"],
      [...per.map(({ d, h }) => [d.id, h]), ["all", all] as const].map(([id, h]) => (h && typeof h === "object" ? [id as string, h.tasks, h.median, `${h.q1}–${h.q3}`, h.max, pct(h.atLeast40, h.tasks)] : [id as string, 0, "–", "–", "–", "–"])),
    ),
    "",
  ];
}
