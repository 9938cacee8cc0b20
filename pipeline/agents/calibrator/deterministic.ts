import type { Task } from "../../schemas/index.js";
import type { Calibrator, DomainContext } from "../types.js";
import { calibrateTask, type Calibration } from "../../../validation/validate-task.js";

/**
 * The calibrator's deterministic strategy: the probe panel (validation's calibrateTask). The
 * competent probe must solve the task from the documents; the flawed probes that fail give the label.
 */
export class DeterministicCalibrator implements Calibrator {
  calibrate(ctx: DomainContext, task: Task): Promise<Calibration> {
    return calibrateTask(ctx, task);
  }

  settings(): null {
    return null;
  }
}
