import type { Task } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { judge } from "../judge.js";
import { calibrate, runProbePanel, type Difficulty, type ProbeRun } from "../probes/panel.js";
import { calibrateModelProbe, type ModelCalibration, type ModelProbe } from "../probes/model-probe.js";
import type { ProbeStyle } from "../probes/probe-style.js";
import { failed, passed, type GateOutcome } from "./types.js";

export interface ProbeGateOptions {
  /** Flawed probes of the panel. Default: FLAWED_PROBES. */
  flawed?: readonly ProbeStyle[];
  /** Model probes, run k times with and without the reference plan. Default: none (no model configured). */
  models?: { probes: readonly ModelProbe[]; k: number };
}

/** Gates 6 and 7: solvability from the documents, and the difficulty label. */
export interface ProbeGates {
  gates: GateOutcome[];
  /** Probe name → solved (model probes as `model:<name>`: solved at least once without the plan). */
  probes: Record<string, boolean>;
  difficulty: Difficulty | null;
  runs: ProbeRun[];
  models: ModelCalibration[];
}

/**
 * Run the probe panel (and model probes when given): the competent probe must solve the task, at
 * least one flawed probe must fail, and the number that fail gives the label (see probes/panel.ts).
 * A model probe that never solves the task even with the plan fails solvability; one that always
 * solves it unaided makes it too easy.
 */
export async function probeGates(ctx: DomainContext, task: Task, opts: ProbeGateOptions = {}): Promise<ProbeGates> {
  const runs = runProbePanel(ctx, task, opts.flawed);
  const probes: Record<string, boolean> = Object.fromEntries(runs.map((r) => [r.name, r.solved]));
  const models: ModelCalibration[] = [];
  for (const m of opts.models?.probes ?? []) {
    const c = await calibrateModelProbe(m, task, opts.models?.k ?? 1, (t) => judge(ctx, task, t).success.strict);
    models.push(c);
    probes[`model:${m.name}`] = c.without_plan > 0;
  }
  const cal = calibrate(runs);
  const unsolvable = models.find((m) => m.verdict === "unsolvable");
  if (cal.verdict === "not_solvable" || unsolvable) {
    const reason = cal.verdict === "not_solvable" ? cal.reason : (unsolvable as ModelCalibration).reason;
    const competent = runs.find((r) => !r.flawed);
    return { gates: [failed("solvability", reason, { check: competent?.failed[0] ?? null, event: null, code: "not_solvable" })], probes, difficulty: null, runs, models };
  }
  const solvable = passed("solvability", "self-consistency: the competent probe solves the task from the documents, the visible world and the request");
  const easy = models.find((m) => m.verdict === "too_easy");
  if (cal.verdict === "too_easy" || easy) {
    const reason = cal.verdict === "too_easy" ? cal.reason : `too easy: ${(easy as ModelCalibration).reason}`;
    return { gates: [solvable, failed("difficulty", reason, { check: null, event: null, code: "too_easy" })], probes, difficulty: null, runs, models };
  }
  const note = models.length > 0 ? `; ${models.map((m) => m.reason).join("; ")}` : "";
  return { gates: [solvable, passed("difficulty", `${cal.reason}${note}`)], probes, difficulty: cal.difficulty, runs, models };
}
