import { services, type NodeConfig } from "../build/services.js";
import type { SlotStateType } from "../graph/slot-state.js";
import type { Task } from "../schemas/index.js";
import { MIN_KILLED_MUTANTS } from "../../validation/validate-task.js";
import { domainContext } from "./domain-context.js";
import { calibrateInputs } from "./calibrate.js";

/**
 * calibrate (per slot, on a worker): the calibrator's verdict on this slot's verified task, through
 * the same stage-cache entry the calibrate node reads, so the coordinator's calibrate stage applies
 * the release rules across slots without calibrating again. A task the rules drop before
 * calibration (too few killed violation traces) is not calibrated; a model failure is left to the
 * coordinator (nothing is cached, as in an embedded build).
 */
export async function calibrateSlot(state: SlotStateType, config?: NodeConfig): Promise<Partial<SlotStateType>> {
  const svc = services(config);
  svc.onNode?.("calibrate_slot");
  const r = state.records[0];
  if (!r || r.status !== "verified" || !r.task || !r.validation) return { calibration: null };
  if (r.validation.mutants.filter((m) => m.killed).length < MIN_KILLED_MUTANTS) return { calibration: null };
  const ctx = domainContext(state, svc);
  const task = r.task as Task;
  try {
    const { value } = await svc.cache.through("calibrate", calibrateInputs(state, svc, ctx, task), () => svc.calibrator.calibrate(ctx, task));
    return { calibration: value };
  } catch {
    return { calibration: null };
  }
}
