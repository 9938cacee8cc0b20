import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Task } from "../schemas/index.js";
import { domainContext } from "./domain-context.js";
import { forEachRecord } from "./for-each-record.js";
import { stageViolations } from "../build/violation-files.js";
import type { Verification } from "../../validation/validate-task.js";

/** verify: stage 1 of the validation (the gates) on every solved task; a failure carries its diagnosis to repair. */
export async function verify(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("verify");
  const ctx = domainContext(state, svc);
  // Validation (gates, mutants, probes) loads only when this stage runs.
  const { verifyTask } = await import("../../validation/validate-task.js");
  const records = await forEachRecord(state, svc, "verify", "solved", async (r): Promise<TaskRecord> => {
    const { value } = await svc.cache.through<Verification>("verify", { task: r.task, golden: r.golden, world: state.worldHash }, async () => verifyTask(ctx, r.task as Task, r.golden));
    // The traces the gates judged, kept for collect: a release ships these, never traces made again later.
    stageViolations(state.paths.generated, state.domain, (r.task as Task).id, value.violations);
    const validation = { ...value.validation, repairs: r.repairs };
    return value.diagnosis
      ? { ...r, status: "failed", reason: `${value.diagnosis.gate}: ${value.diagnosis.detail}`, diagnosis: value.diagnosis, validation }
      : { ...r, status: "verified", reason: null, diagnosis: null, validation };
  });
  return { records };
}
