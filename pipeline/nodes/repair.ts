import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Diagnosis } from "../agents/types.js";
import type { Task } from "../schemas/index.js";
import { domainContext } from "./domain-context.js";
import { forEachRecord } from "./for-each-record.js";

/**
 * repair: stage 2 of the validation. Each failed task gets one repair attempt per round while the
 * domain card's `generation.repair_attempts` allows (the graph loops back only through here, so
 * this bound ends the loop); a task out of attempts, or that the repairer cannot fix, is dropped
 * with its reason.
 */
export async function repair(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("repair");
  const ctx = domainContext(state, svc);
  const { mayRepair } = await import("../../validation/validate-task.js");
  const round = state.round + 1;
  const records = await forEachRecord(state, svc, "repair", "failed", async (r): Promise<TaskRecord> => {
    const diagnosis = r.diagnosis as Diagnosis;
    const allowed = mayRepair(ctx.card, r.repairs.length, r.reason ?? `${diagnosis.gate}: ${diagnosis.detail}`);
    if (!allowed.repair) return { ...r, status: "dropped", reason: allowed.reason };
    const attempt = r.repairs.length + 1;
    const fixed = r.task ? await svc.repairer.repair(ctx, r.task as Task, diagnosis, attempt, r.golden) : null;
    const entry = { attempt, diagnosis: `${diagnosis.gate}${diagnosis.check ? ` / ${diagnosis.check}` : ""}${diagnosis.event !== null ? ` @ event ${diagnosis.event}` : ""}: ${diagnosis.detail}` };
    if (!fixed) return { ...r, status: "dropped", reason: `cannot be repaired: ${r.reason ?? diagnosis.detail}`, repairs: [...r.repairs, { ...entry, action: "none available" }] };
    return { ...r, task: fixed.task, status: fixed.resume, golden: null, diagnosis: null, repairs: [...r.repairs, { ...entry, action: fixed.action }] };
  });
  return { records, round };
}
