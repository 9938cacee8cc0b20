import type { BuildStateType } from "./state.js";

/**
 * After verify: repair while some task failed, else calibrate. The repair node drops a task whose
 * domain card allows no further attempt (`generation.repair_attempts`), so the loop ends.
 */
export function afterVerify(s: BuildStateType): "repair" | "calibrate" {
  return s.records.some((r) => r.status === "failed") ? "repair" : "calibrate";
}

/** After repair: rewrite checks for re-designed tasks, re-solve for tasks whose checks changed. */
export function afterRepair(s: BuildStateType): "write_checks" | "solve" | "calibrate" {
  if (s.records.some((r) => r.status === "designed")) return "write_checks";
  if (s.records.some((r) => r.status === "checked")) return "solve";
  return "calibrate";
}

/** After ingest: an executable domain goes on to SOP extraction, a simulated-only one to its own branch. */
export function afterIngest(s: BuildStateType): "extract_sop" | "simulated_environment" {
  return s.environment === "simulated" ? "simulated_environment" : "extract_sop";
}

/** After a simulated-only domain's solve: repair while some task failed, else calibrate. */
export function afterSimulatedSolve(s: BuildStateType): "simulated_repair" | "simulated_calibrate" {
  return s.simRecords.some((r) => r.status === "failed") ? "simulated_repair" : "simulated_calibrate";
}

/** After a simulated-only domain's repair: solve the repaired tasks again, else calibrate (the rest were dropped). */
export function afterSimulatedRepair(s: BuildStateType): "simulated_solve" | "simulated_calibrate" {
  return s.simRecords.some((r) => r.status === "designed") ? "simulated_solve" : "simulated_calibrate";
}
