import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import type { Task } from "../schemas/index.js";
import { stageViolations } from "../build/violation-files.js";
import { domainContext } from "./domain-context.js";
import { calibrateInputs } from "./calibrate.js";

/**
 * slot work (postgres backend, one Send branch per slot): the slot's design → checks → solve →
 * verify → repair → calibrate runs as a queue item on a worker; this node waits for it, stages the
 * violation traces its last verification judged (as the verify node does in an embedded build) and
 * stores its calibration under the calibrate stage's cache key, so the calibrate node that follows
 * applies the release rules across slots exactly as in an embedded build.
 */
export async function slotWork(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("slot_work");
  if (!svc.slots) throw new Error("slot_work needs the postgres backend's slot runner");
  const out = await svc.slots.run(state);
  const task = out.record.task as Task | null;
  if (task && out.violations.length > 0) stageViolations(state.paths.generated, state.domain, task.id, out.violations);
  if (task && out.calibration !== null) {
    const ctx = domainContext(state, svc);
    svc.cache.put("calibrate", svc.cache.key("calibrate", calibrateInputs(state, svc, ctx, task)), out.calibration);
  }
  svc.progress.emit({ event: "item", domain: state.domain, stage: "slots", done: state.slot + 1, total: state.slots.length });
  return { records: [out.record] };
}
