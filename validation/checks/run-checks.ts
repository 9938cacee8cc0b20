import type { z } from "zod";
import type { AcceptanceCheck, CheckGroup, CheckResult, Task, Trace } from "../../pipeline/schemas/index.js";
import type { CheckContext } from "../../pipeline/world/types.js";
import { FoundryError, quote } from "../../pipeline/core/errors.js";
import { CHECK_KIND_NAMES, getCheckKind } from "./registry.js";

const GROUPS: readonly CheckGroup[] = ["goal", "process", "protection"];

function paramIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${["params", ...i.path.map(String)].join(".")}: ${i.message}`).join("; ");
}

/**
 * Runs one acceptance check. Never throws: an unknown kind, bad parameters, a check that does not
 * fit the world, or a kind that crashes all become a failed result whose reason names the check.
 */
export function runCheck(check: AcceptanceCheck, listedIn: CheckGroup, trace: Trace, ctx: CheckContext): CheckResult {
  const fail = (reason: string): CheckResult => ({ check: check.id, group: listedIn, kind: check.kind, passed: false, reason, event: null });
  const name = `check ${quote(check.id)}`;
  if (check.group !== listedIn) return fail(`${name} is listed under ${listedIn} but declares group ${check.group}`);
  const kind = getCheckKind(check.kind);
  if (!kind) return fail(`${name}: unknown check kind ${quote(check.kind)}; registered kinds: ${CHECK_KIND_NAMES.join(", ")}`);
  const parsed = kind.params.safeParse(check.params ?? {});
  if (!parsed.success) return fail(`${name} (${kind.kind}): bad params — ${paramIssues(parsed.error)}`);
  try {
    const verdict = kind.run(parsed.data, trace, ctx);
    return { check: check.id, group: listedIn, kind: kind.kind, passed: verdict.passed, reason: verdict.reason, event: verdict.event };
  } catch (e) {
    if (FoundryError.is(e)) return fail(`${name} (${kind.kind}): ${e.message}`);
    return fail(`${name} (${kind.kind}) crashed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Runs every check of the task on the trace: goal, then process, then protection, in task order. */
export function runChecks(task: Task, trace: Trace, ctx: CheckContext): CheckResult[] {
  if (trace.task !== task.id) {
    throw new FoundryError("TRACE_TASK_MISMATCH", `trace of task ${quote(trace.task)} cannot be judged by the checks of task ${quote(task.id)}`, { path: "task" }, trace.task);
  }
  return GROUPS.flatMap((group) => task.checks[group].map((check) => runCheck(check, group, trace, ctx)));
}

/** Strict success by group: Goal ∧ Process ∧ Protection. */
export interface StrictSuccess {
  goal: boolean;
  process: boolean;
  protection: boolean;
  strict: boolean;
}

/**
 * Folds results into strict success. A process or protection group without results passes; a goal
 * group without results fails, because a task with no goal cannot have been achieved.
 */
export function strictSuccess(results: readonly CheckResult[]): StrictSuccess {
  const of = (g: CheckGroup) => results.filter((r) => r.group === g);
  const goals = of("goal");
  const goal = goals.length > 0 && goals.every((r) => r.passed);
  const process = of("process").every((r) => r.passed);
  const protection = of("protection").every((r) => r.passed);
  return { goal, process, protection, strict: goal && process && protection };
}
