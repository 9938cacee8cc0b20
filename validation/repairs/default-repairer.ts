import type { Task } from "../../pipeline/schemas/index.js";
import type { Diagnosis } from "../gates/types.js";
import { removeCheck } from "./remove-check.js";
import { requireExecution } from "./require-execution.js";
import { rederiveArgs } from "./rederive-args.js";
import { dropUnusedFact } from "./drop-unused-fact.js";
import type { RepairFn, RepairInfo, Repaired } from "./types.js";

/**
 * The deterministic repairer, by diagnosis code:
 * - `weak_goal_check` (a do-nothing trace passes it), `alternative_failed` (a valid alternative
 *   fails it): remove the check (never the task's only goal check);
 * - `survivor_never_executed`: set `required: true` on the check that passed vacuously;
 * - `golden_check_failed`, `golden_unsolved`, `replay_mismatch`: re-derive the arguments of the plan
 *   step whose call was refused (facts for customer parameters, keys from the request);
 * - `fact_inconsistent`, `fact_undisclosed`: drop the fact when nothing uses it.
 * Anything else: null (nothing to try).
 */
export const defaultRepairer: RepairFn = (task: Task, d: Diagnosis, _attempt: number, info: RepairInfo): Repaired | null => {
  switch (d.code) {
    case "weak_goal_check":
      return d.check ? removeCheck(task, d.check, "a do-nothing trace passes it") : null;
    case "alternative_failed":
      return d.check ? removeCheck(task, d.check, "a valid alternative execution fails it") : null;
    case "survivor_never_executed":
      return d.check ? requireExecution(task, d.check) : null;
    case "golden_check_failed":
    case "golden_unsolved":
    case "replay_mismatch":
      return rederiveArgs(info.ctx, task, d.event, info.golden);
    case "fact_inconsistent":
    case "fact_undisclosed":
      return d.fact ? dropUnusedFact(task, d.fact, info.golden) : null;
    default:
      return null;
  }
};

/** Try repairers in order (e.g. the graph's own, then the default); the first that repairs wins. */
export function chainRepairers(...repairers: RepairFn[]): RepairFn {
  return async (task, d, attempt, info) => {
    for (const r of repairers) {
      const out = await r(task, d, attempt, info);
      if (out) return out;
    }
    return null;
  };
}
