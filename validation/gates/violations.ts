import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { executions } from "../checks/index.js";
import { runMutants, type MutantOutcome, type MutationRun } from "../mutants/run-mutants.js";
import type { MutationOperator } from "../mutants/types.js";
import { MUTATION_OPERATORS } from "../mutants/registry.js";
import { failed, passed, type Diagnosis, type GateOutcome } from "./types.js";

/** Gate 3 result: the gate plus every mutant and the operators that did not apply. */
export interface ViolationsGate extends GateOutcome, MutationRun {
  /** Killed / judged mutants; null without mutants. */
  killRate: number | null;
}

/** Kinds whose check passes when its operation never ran unless told otherwise (`required`). */
const PASS_WHEN_NEVER_RUN: ReadonlySet<string> = new Set(["approval_before_execution", "deadline_met"]);

function diagnose(task: Task, s: MutantOutcome): Omit<Diagnosis, "gate" | "detail"> & { detail: string } {
  const detail = `mutant ${s.operator} (${s.description}) survived${s.target_check ? ` check ${s.target_check}` : ""}: ${s.reason}`;
  if (s.operator === "do_nothing") return { check: s.target_check, event: null, code: "weak_goal_check", operator: s.operator, detail };
  const check = [...task.checks.process, ...task.checks.goal].find((c) => c.id === s.target_check);
  const op = check ? String((check.params as Record<string, unknown>).operation ?? "") : "";
  if (check && PASS_WHEN_NEVER_RUN.has(check.kind) && executions(s.trace, op).length === 0) {
    return { check: check.id, event: null, code: "survivor_never_executed", operator: s.operator, detail };
  }
  return { check: s.target_check, event: null, code: "mutant_survived", operator: s.operator, detail };
}

/**
 * Gate 3: every targeted violation trace fails, on the check it targets. A survivor is a check that
 * does not catch what it exists to catch (or a gap: no check of that kind); do-nothing survivors
 * are weak goal checks.
 */
export function violationsGate(ctx: DomainContext, task: Task, golden: Trace, operators: readonly MutationOperator[] = MUTATION_OPERATORS): ViolationsGate {
  const run = runMutants(ctx, task, golden, operators);
  const killed = run.mutants.filter((m) => m.killed).length;
  const total = run.mutants.length;
  const killRate = total === 0 ? null : killed / total;
  const summary = `killed ${killed} of ${total} mutants${total > 0 ? ` (${Math.round((killed / total) * 100)}%)` : ""}; ${run.notApplicable.length} operator uses not applicable`;
  // Weak goal checks first: a goal nothing can fail makes every other verdict meaningless.
  const survivors = [...run.mutants.filter((m) => !m.killed)].sort((a, b) => Number(b.operator === "do_nothing") - Number(a.operator === "do_nothing"));
  const first = survivors[0];
  if (first) {
    const d = diagnose(task, first);
    const list = survivors.map((s) => `${s.operator}→${s.target_check ?? "no check"}`).join(", ");
    return { ...failed("violations", `${summary}; survivors: ${list}. First: ${d.detail}`, d), ...run, killRate };
  }
  return { ...passed("violations", summary), ...run, killRate };
}
