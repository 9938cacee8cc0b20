import type { Task, Trace } from "../pipeline/schemas/index.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { FoundryError } from "../pipeline/core/errors.js";
import { goldenReplayGate } from "./gates/golden-replay.js";
import { scenarioConsistencyGate } from "./gates/scenario-consistency.js";
import { alternativesGate } from "./gates/alternatives.js";
import { violationsGate } from "./gates/violations.js";
import { modifiedFactsGate, type FactTrial } from "./gates/modified-facts.js";
import { probeGates, type ProbeGateOptions } from "./gates/probe-gates.js";
import { failed, type Diagnosis, type GateName, type GateOutcome } from "./gates/types.js";
import type { MutantOutcome } from "./mutants/run-mutants.js";
import type { MutationOperator, NotApplicable } from "./mutants/types.js";
import type { Difficulty, ProbeRun } from "./probes/panel.js";

export interface GateOptions extends ProbeGateOptions {
  /** Run the probe panel (solvability and difficulty). Default true. */
  probes?: boolean;
  /** Mutation operators. Default: the registry (MUTATION_OPERATORS). */
  operators?: readonly MutationOperator[];
}

/** Everything the gates found about one task on one attempt. */
export interface GateRun {
  gates: GateOutcome[];
  /** The first failure, or null when every gate passed. */
  diagnosis: Diagnosis | null;
  /** The golden trace as parsed (null when it did not parse). */
  golden: Trace | null;
  mutants: MutantOutcome[];
  notApplicable: NotApplicable[];
  killRate: number | null;
  alternatives: { generated: number; passed: number };
  /** Modified facts tried, with what each crossed and flipped. */
  modifiedFacts: FactTrial[];
  probes: Record<string, boolean>;
  /** The probe panel's episodes (traces for reviewers). */
  probeRuns: ProbeRun[];
  difficulty: Difficulty | null;
}

/** A gate that threw is a failed gate naming the error, never a crash of the whole validation. */
function guarded<T extends GateOutcome>(gate: GateName, run: () => T): T | GateOutcome {
  try {
    return run();
  } catch (e) {
    const msg = FoundryError.is(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
    return failed(gate, `gate crashed: ${msg}`, { check: null, event: null, code: "gate_crashed" });
  }
}

/**
 * Run the gates on one task in order, stopping at the first failure: golden replay, scenario
 * consistency, alternatives, violations (mutants), modified facts, then the probe panel
 * (solvability, difficulty).
 */
export async function runGates(ctx: DomainContext, task: Task, golden: unknown, opts: GateOptions = {}): Promise<GateRun> {
  const out: GateRun = { gates: [], diagnosis: null, golden: null, mutants: [], notApplicable: [], killRate: null, alternatives: { generated: 0, passed: 0 }, modifiedFacts: [], probes: {}, probeRuns: [], difficulty: null };
  const stop = (g: GateOutcome) => {
    out.gates.push(g);
    if (!g.passed) out.diagnosis = g.diagnosis;
    return !g.passed;
  };
  const replay = guarded("golden_replay", () => goldenReplayGate(ctx, task, golden));
  out.golden = "trace" in replay ? replay.trace : null;
  if (stop(replay) || !out.golden) return out;
  const trace = out.golden;
  if (stop(guarded("scenario_consistency", () => scenarioConsistencyGate(ctx, task, trace)))) return out;
  const alt = guarded("alternatives", () => alternativesGate(ctx, task, trace));
  if ("generated" in alt) out.alternatives = { generated: alt.generated, passed: alt.passedCount };
  if (stop(alt)) return out;
  const vio = guarded("violations", () => violationsGate(ctx, task, trace, opts.operators));
  if ("mutants" in vio) Object.assign(out, { mutants: vio.mutants, notApplicable: vio.notApplicable, killRate: vio.killRate });
  if (stop(vio)) return out;
  const facts = guarded("modified_facts", () => modifiedFactsGate(ctx, task, trace));
  if ("trials" in facts) out.modifiedFacts = facts.trials;
  if (stop(facts)) return out;
  if (opts.probes === false) return out;
  try {
    const p = await probeGates(ctx, task, opts);
    out.probes = p.probes;
    out.probeRuns = p.runs;
    out.difficulty = p.difficulty;
    for (const g of p.gates) if (stop(g)) return out;
  } catch (e) {
    stop(failed("solvability", `gate crashed: ${e instanceof Error ? e.message : String(e)}`, { check: null, event: null, code: "gate_crashed" }));
  }
  return out;
}
