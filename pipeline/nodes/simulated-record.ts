import type { SimulatedTask, SimulatedVerdict, SolveRate } from "../schemas/index.js";
export type { SimulatedEnvironmentDraft } from "../agents/simulated/config-writer.js";

/** One task slot of a simulated-only domain on its way through the branch (checkpointed: JSON only). */
export interface SimulatedRecord {
  slot: number;
  id: string;
  task: SimulatedTask;
  /** designed → (solved) verified | failed → (repair) designed | dropped; verified → (calibrate) released | dropped. */
  status: "designed" | "verified" | "failed" | "released" | "dropped";
  reason: string | null;
  repairs: Array<{ attempt: number; diagnosis: string; action: string }>;
  /** The solver's last trajectory, as its file's bytes (stable JSON); null before the first solve. */
  trajectory: string | null;
  /** The rubric verifier's verdict on `trajectory`, every judgment kept. */
  verdict: SimulatedVerdict | null;
  solve_rate: SolveRate | null;
}

/** A record with some fields changed (records are replaced whole in the state). */
export function updated(r: SimulatedRecord, change: Partial<SimulatedRecord>): SimulatedRecord {
  return { ...r, ...change };
}
