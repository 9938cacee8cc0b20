import type { TaskValidation } from "../pipeline/schemas/index.js";
import type { GateRun } from "./validate-task.js";

/** One repair attempt as the report records it. */
export interface RepairRecord {
  attempt: number;
  diagnosis: string;
  action: string;
}

/** The report entry of one task from its last gate run. */
export function taskValidation(task: string, run: GateRun, repairs: readonly RepairRecord[], dropReason: string | null): TaskValidation {
  return {
    task,
    status: dropReason === null ? "released" : "dropped",
    gates: run.gates.map((g) => ({ gate: g.gate, passed: g.passed, detail: g.detail })),
    mutants: run.mutants.map((m) => ({ operator: m.operator, target_check: m.target_check, killed: m.killed, failed_checks: m.failed_checks, description: m.description, reason: m.reason })),
    not_applicable: run.notApplicable.map((n) => ({ operator: n.operator, reason: n.reason })),
    kill_rate: run.killRate,
    repairs: [...repairs],
    probes: run.probes,
    difficulty: dropReason === null ? run.difficulty : null,
    drop_reason: dropReason,
  };
}
