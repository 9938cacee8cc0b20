import { services, type BuildServices, type NodeConfig } from "../build/services.js";
import type { DomainContext } from "../world/domain-context.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Task, TaskValidation } from "../schemas/index.js";
import type { Calibrate, Calibration } from "../../validation/validate-task.js";
import { FoundryError } from "../core/errors.js";
import { isModelError, modelFailureReason } from "../llm/failure-reason.js";
import { domainContext } from "./domain-context.js";

/** The stage-cache inputs of one task's calibration (also what a postgres build's worker computes it under). */
export function calibrateInputs(state: BuildStateType, svc: BuildServices, ctx: DomainContext, task: Task) {
  return { task, world: state.worldHash, sop: state.sopHash, strategy: svc.strategies.calibrator, settings: svc.calibrator.settings(ctx) };
}

/**
 * calibrate: stage 3 of the validation (validation/validate-task.ts `releaseTasks`) on the verified
 * tasks: the release rules (enough killed violation traces, no duplicates), then the calibrator
 * strategy of this build (deterministic: the probe panel; llm: a model agent's solve rate), which
 * gives the label. Every rule lives in validation; this node only calls the strategy, through the
 * stage cache.
 */
export async function calibrate(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("calibrate");
  const ctx = domainContext(state, svc);
  const { releaseTasks } = await import("../../validation/validate-task.js");
  const todo = state.records.filter((r) => r.status === "verified" && r.task && r.validation);
  svc.progress.emit({ event: "stage", domain: state.domain, stage: "calibrate", total: todo.length });
  const inputs = (task: Task) => calibrateInputs(state, svc, ctx, task);
  // A model failure drops only this task, with its class, stage, task and model; thrown out of the
  // through(), so nothing is cached and the next build asks again.
  const calibrator: Calibrate = async (task) =>
    (await svc.cache.through<Calibration>("calibrate", inputs(task), () => svc.calibrator.calibrate(ctx, task)).catch((e: unknown) => {
      if (!FoundryError.is(e) || !isModelError(e)) throw e;
      return { value: { verdict: "dropped" as const, reason: `calibrate: ${modelFailureReason(e)}`, probes: {} } };
    })).value;
  const verdicts = await releaseTasks(
    todo.map((r) => ({ task: r.task as Task, validation: r.validation as TaskValidation })),
    { calibrate: calibrator, onItem: (done, total) => svc.progress.emit({ event: "item", domain: state.domain, stage: "calibrate", done, total }) },
  );
  const records: TaskRecord[] = todo.map((r, i) => {
    const v = verdicts[i] as (typeof verdicts)[number];
    return v.status === "released" ? { ...r, task: v.task, validation: v.validation } : { ...r, status: "dropped", reason: v.reason, validation: v.validation };
  });
  const kept = records.filter((r) => r.status === "verified").length;
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "calibrate", done: kept, total: records.length });
  return { records, stages: [{ stage: "calibrate", items_in: records.length, items_out: kept, dropped: records.filter((r) => r.status === "dropped" && r.id).map((r) => ({ item: r.id as string, reason: r.reason ?? "" })) }] };
}
