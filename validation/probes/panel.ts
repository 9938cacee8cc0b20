import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { judge } from "../judge.js";
import { runProbe } from "./probe-agent.js";
import { COMPETENT, FLAWED_PROBES, type ProbeStyle } from "./probe-style.js";

/** One probe's episode on a task, judged by the task's checks (the calibrator's job). */
export interface ProbeRun {
  name: string;
  flawed: boolean;
  solved: boolean;
  failed: string[];
  /** Why each failed check failed (`<check>: <reason>`), in check order. */
  reasons: string[];
  trace: Trace;
}

/** Run the competent probe and the flawed ones on a task; strict success decides `solved`. */
export function runProbePanel(ctx: DomainContext, task: Task, flawed: readonly ProbeStyle[] = FLAWED_PROBES): ProbeRun[] {
  return [COMPETENT, ...flawed].map((style) => {
    const trace = runProbe(ctx, task, style);
    const j = judge(ctx, task, trace);
    const reasons = j.results.filter((r) => !r.passed).map((r) => `${r.check}: ${r.reason}`);
    return { name: style.name, flawed: style !== COMPETENT, solved: j.success.strict, failed: j.failed, reasons, trace };
  });
}

export type Difficulty = "easy" | "medium" | "hard" | "expert";

/** The panel's verdict on a task. */
export type Calibration =
  | { verdict: "calibrated"; difficulty: Difficulty; flawedFailed: number; reason: string }
  | { verdict: "not_solvable" | "too_easy"; difficulty: null; flawedFailed: number; reason: string };

/**
 * Difficulty from the probe panel. The competent probe must solve the task (else it is not
 * solvable from the documents); at least one flawed probe must fail (else no rule bites: too easy).
 * The label counts the flawed probes that fail: 1 easy, 2 medium, 3 hard, 4 or more expert.
 */
export function calibrate(runs: readonly ProbeRun[]): Calibration {
  const competent = runs.find((r) => !r.flawed);
  const flawed = runs.filter((r) => r.flawed);
  const failing = flawed.filter((r) => !r.solved);
  const n = failing.length;
  if (!competent || !competent.solved) {
    const why = competent ? `failed checks: ${competent.failed.join(", ")}${probeStory(competent)}` : "no competent probe ran";
    return { verdict: "not_solvable", difficulty: null, flawedFailed: n, reason: `the competent probe could not solve the task from the documents (${why})` };
  }
  if (n === 0) return { verdict: "too_easy", difficulty: null, flawedFailed: 0, reason: `too easy: every flawed probe (${flawed.map((r) => r.name).join(", ")}) solved it, so no rule bites` };
  const difficulty: Difficulty = n >= 4 ? "expert" : n === 3 ? "hard" : n === 2 ? "medium" : "easy";
  return { verdict: "calibrated", difficulty, flawedFailed: n, reason: `${n} of ${flawed.length} flawed probes fail (${failing.map((r) => r.name).join(", ")}): ${difficulty}` };
}

/**
 * Why a probe failed, beyond which checks: each failed check's reason and the probe's calls the
 * world refused (with the refusing precondition), so a drop can be acted on without a rerun.
 */
function probeStory(run: ProbeRun): string {
  const refused = run.trace.events.filter((e) => e.actor === "agent" && (e.status === "rejected" || e.status === "errored"));
  const parts = [
    ...run.reasons,
    // Identical refusals (a probe retrying) are named once, with every event they happened at.
    ...[...groupRefusals(refused)].map(([what, at]) => `${at.length === 1 ? "event" : "events"} ${at.join(", ")} ${what}`),
    `the probe's episode ended at event ${run.trace.events.length}, minute ${run.trace.clock_end}`,
  ];
  return `; ${parts.join("; ")}`;
}

/** Refused calls by what was refused and why, each with the events it happened at, in first-seen order. */
function groupRefusals(events: readonly Trace["events"][number][]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const e of events) {
    const what = `${e.name} ${e.status}${e.reason ? `: ${e.reason}` : ""}`;
    out.set(what, [...(out.get(what) ?? []), e.index]);
  }
  return out;
}
