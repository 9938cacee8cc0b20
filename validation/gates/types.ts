/** The gates a task goes through, in the order they run. */
export const GATE_NAMES = ["golden_replay", "scenario_consistency", "alternatives", "violations", "modified_facts", "solvability", "difficulty"] as const;
export type GateName = (typeof GATE_NAMES)[number];

/** Machine-readable kinds of failure, so a deterministic repairer can act without parsing prose. */
export type DiagnosisCode =
  | "golden_invalid"
  | "golden_unsolved"
  | "replay_mismatch"
  | "golden_check_failed"
  | "alternative_failed"
  | "weak_goal_check"
  | "mutant_survived"
  | "survivor_never_executed"
  | "judgment_not_flipped"
  | "fact_inconsistent"
  | "fact_undisclosed"
  | "not_solvable"
  | "too_easy"
  | "gate_crashed";

/**
 * Where a failing task failed: the gate, the check and the event that decided it, in words. The
 * first four fields are the graph's `Diagnosis`; `code`, `operator` and `fact` are extra detail.
 */
export interface Diagnosis {
  gate: string;
  check: string | null;
  event: number | null;
  detail: string;
  code?: DiagnosisCode;
  operator?: string;
  fact?: string;
}

/** What one gate decided about one task. */
export interface GateOutcome {
  gate: GateName;
  passed: boolean;
  detail: string;
  /** Set when the gate failed. */
  diagnosis: Diagnosis | null;
}

/** `golden_replay: check g1 failed at event 7 — reason`: a diagnosis in one line. */
export function formatDiagnosis(d: Diagnosis): string {
  const where = [d.check ? `check ${d.check}` : null, d.event !== null ? `event ${d.event}` : null, d.operator ? `operator ${d.operator}` : null].filter((s) => s !== null);
  return `${d.gate}${where.length > 0 ? ` (${where.join(", ")})` : ""}: ${d.detail}`;
}

/** A passed gate. */
export function passed(gate: GateName, detail: string): GateOutcome {
  return { gate, passed: true, detail, diagnosis: null };
}

/** A failed gate with its diagnosis. */
export function failed(gate: GateName, detail: string, d: Omit<Diagnosis, "gate" | "detail"> & { detail?: string }): GateOutcome {
  return { gate, passed: false, detail, diagnosis: { ...d, gate, detail: d.detail ?? detail } };
}
