import type { BuildStateType } from "./state.js";

/** Repair rounds allowed per build (the domain card's `repair_attempts` bounds each task further). */
export const MAX_REPAIR_ROUNDS = 3;

/** After verify: repair while some task failed and rounds remain, else calibrate. */
export function afterVerify(s: BuildStateType): "repair" | "calibrate" {
  return s.records.some((r) => r.status === "failed") && s.round < MAX_REPAIR_ROUNDS ? "repair" : "calibrate";
}

/** After repair: rewrite checks for re-designed tasks, re-solve for tasks whose checks changed. */
export function afterRepair(s: BuildStateType): "write_checks" | "solve" | "calibrate" {
  if (s.records.some((r) => r.status === "designed")) return "write_checks";
  if (s.records.some((r) => r.status === "checked")) return "solve";
  return "calibrate";
}
