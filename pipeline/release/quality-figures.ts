import type { Trace, ValidationReport } from "../schemas/index.js";

/*
 * The figures the release filter cannot make true by construction, each computed from a build's
 * records: validation.json (every generated task, dropped ones included, with its mutants, the
 * operators that did not apply, its repairs and its probes) and the released golden traces.
 */

/** A mutant no check caught on a task's last verification, or one a repair answered. */
export interface Survivor {
  task: string;
  operator: string;
  /** `released`, `dropped: <reason>`, or what a repair changed after the mutant survived. */
  outcome: string;
}

export interface OperatorFigures {
  /** Violation traces run (all generated tasks, last verification). */
  applied: number;
  killed: number;
  /** Repairs made after a mutant of this operator survived (action other than "none available"). */
  repaired: number;
  /** Uses that did not apply (nothing to mutate, or the world refused the violation). */
  not_applicable: number;
}

export interface QualityFigures {
  /** Every generated task before the release filter (dropped ones included). */
  generated: number;
  mutants: { total: number; killed: number };
  survivors: Survivor[];
  byOperator: Record<string, OperatorFigures>;
  /** Probe name → released tasks it solves, of those it ran on. */
  probes: Record<string, { solved: number; runs: number }>;
}

/** The operator a repair entry answered, read from its diagnosis (`violations…: mutant <op> (…) survived…`). */
export function repairedOperator(diagnosis: string): string | null {
  if (!diagnosis.startsWith("violations")) return null;
  const m = /mutant ([a-z_]+) \(/.exec(diagnosis);
  return m ? (m[1] as string) : null;
}

/** Pre-filter figures of one domain's validation report. */
export function qualityFigures(report: ValidationReport): QualityFigures {
  const out: QualityFigures = { generated: report.tasks.length, mutants: { total: 0, killed: 0 }, survivors: [], byOperator: {}, probes: {} };
  const op = (name: string) => (out.byOperator[name] ??= { applied: 0, killed: 0, repaired: 0, not_applicable: 0 });
  for (const t of report.tasks) {
    for (const r of t.repairs) {
      const name = repairedOperator(r.diagnosis);
      if (!name) continue;
      const fixed = r.action !== "none available";
      if (fixed) op(name).repaired += 1;
      out.survivors.push({ task: t.task, operator: name, outcome: fixed ? `repair ${r.attempt}: ${r.action}` : `repair ${r.attempt}: none available` });
    }
    for (const m of t.mutants) {
      out.mutants.total += 1;
      op(m.operator).applied += 1;
      if (m.killed) {
        out.mutants.killed += 1;
        op(m.operator).killed += 1;
      } else out.survivors.push({ task: t.task, operator: m.operator, outcome: t.status === "released" ? "released" : `dropped: ${t.drop_reason ?? "no reason recorded"}` });
    }
    for (const n of t.not_applicable ?? []) op(n.operator).not_applicable += 1;
    if (t.status !== "released") continue;
    for (const [name, solved] of Object.entries(t.probes)) {
      const p = (out.probes[name] ??= { solved: 0, runs: 0 });
      p.runs += 1;
      if (solved) p.solved += 1;
    }
  }
  return out;
}

/** Agent events of a golden trace: its horizon. */
export function horizon(trace: Trace): number {
  return trace.events.filter((e) => e.actor === "agent").length;
}

export interface HorizonFigures {
  tasks: number;
  median: number;
  q1: number;
  q3: number;
  max: number;
  /** Traces with 40 or more agent events. */
  atLeast40: number;
}

/** Quantile by linear interpolation between closest ranks (sorted input). */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

/** The horizon distribution of a set of golden traces (agent events per trace); null without traces. */
export function horizonFigures(horizons: readonly number[]): HorizonFigures | null {
  if (horizons.length === 0) return null;
  const s = [...horizons].sort((a, b) => a - b);
  return { tasks: s.length, median: quantile(s, 0.5), q1: quantile(s, 0.25), q3: quantile(s, 0.75), max: s[s.length - 1] as number, atLeast40: s.filter((n) => n >= 40).length };
}
