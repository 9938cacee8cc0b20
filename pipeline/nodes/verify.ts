import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Task, Trace } from "../schemas/index.js";
import { domainContext } from "./domain-context.js";
import { forEachRecord } from "./for-each-record.js";
import { verifyTask } from "../build/verify-task.js";

/** verify: the validation gates on every solved task; a failure carries its diagnosis to repair. */
export async function verify(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("verify");
  const ctx = domainContext(state, svc);
  const records = await forEachRecord(state, svc, "verify", "solved", async (r): Promise<TaskRecord> => {
    const { value: found } = await svc.cache.through("verify", { task: r.task, golden: r.golden, world: state.worldHash }, async () => ({ diagnosis: verifyTask(ctx, r.task as Task, r.golden as Trace) }));
    const diagnosis = found.diagnosis;
    return diagnosis ? { ...r, status: "failed", reason: `${diagnosis.gate}: ${diagnosis.detail}`, diagnosis } : { ...r, status: "verified", reason: null, diagnosis: null };
  });
  return { records };
}
