import { DEFAULT_CALIBRATION_RUNS } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";

/** The domain card's `calibration.runs`, default DEFAULT_CALIBRATION_RUNS. */
export function calibrationRuns(ctx: DomainContext): number {
  return ctx.card.calibration?.runs ?? DEFAULT_CALIBRATION_RUNS;
}
