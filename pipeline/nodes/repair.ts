import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Diagnosis } from "../agents/types.js";
import type { Task } from "../schemas/index.js";
import { domainContext } from "./domain-context.js";
import { forEachRecord } from "./for-each-record.js";

/** repair: each failed task gets one bounded repair attempt per round, or is dropped with its reason. */
export async function repair(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("repair");
  const ctx = domainContext(state, svc);
  const round = state.round + 1;
  const records = await forEachRecord(state, svc, "repair", "failed", async (r): Promise<TaskRecord> => {
    const diagnosis = r.diagnosis as Diagnosis;
    const fixed = r.task ? await svc.repairer.repair(ctx, r.task as Task, diagnosis, round, r.golden) : null;
    const entry = { attempt: round, diagnosis: `${diagnosis.gate}${diagnosis.check ? ` / ${diagnosis.check}` : ""}${diagnosis.event !== null ? ` @ event ${diagnosis.event}` : ""}: ${diagnosis.detail}` };
    if (!fixed) return { ...r, status: "dropped", reason: `cannot be repaired: ${r.reason ?? diagnosis.detail}`, repairs: [...r.repairs, { ...entry, action: "none available" }] };
    return { ...r, task: fixed.task, status: fixed.resume, golden: null, diagnosis: null, repairs: [...r.repairs, { ...entry, action: fixed.action }] };
  });
  return { records, round };
}
