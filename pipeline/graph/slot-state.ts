import { Annotation } from "@langchain/langgraph";
import { BuildState } from "./state.js";

/**
 * The state of one task slot's per-slot work on a worker (postgres backend): the build state with
 * one slot, plus the calibrator's verdict on its task, which the coordinator's calibrate stage uses.
 */
export const SlotState = Annotation.Root({
  ...BuildState.spec,
  calibration: Annotation<unknown>({ reducer: (_a: unknown, b: unknown) => b, default: () => null }),
});

export type SlotStateType = typeof SlotState.State;
