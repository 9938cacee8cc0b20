import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Task, Trace } from "../schemas/index.js";
import { domainContext } from "./domain-context.js";
import { forEachRecord } from "./for-each-record.js";
import { verifyTask, type Verification } from "../build/verify-task.js";

/** verify: the validation gates on every solved task; a failure carries its diagnosis to repair. */
export async function verify(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("verify");
  const ctx = domainContext(state, svc);
  const records = await forEachRecord(state, svc, "verify", "solved", async (r): Promise<TaskRecord> => {
    const { value } = await svc.cache.through<Verification>("verify", { task: r.task, golden: r.golden, world: state.worldHash }, () => verifyTask(ctx, r.task as Task, r.golden as Trace));
    const validation = { ...value.validation, repairs: r.repairs };
    return value.diagnosis
      ? { ...r, status: "failed", reason: `${value.diagnosis.gate}: ${value.diagnosis.detail}`, diagnosis: value.diagnosis, validation }
      : { ...r, status: "verified", reason: null, diagnosis: null, validation };
  });
  return { records };
}
