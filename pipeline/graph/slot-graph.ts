import { END, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { SlotState } from "./slot-state.js";
import { designTask } from "../nodes/design-task.js";
import { writeChecks } from "../nodes/write-checks.js";
import { solve } from "../nodes/solve.js";
import { verify } from "../nodes/verify.js";
import { repair } from "../nodes/repair.js";
import { calibrateSlot } from "../nodes/calibrate-slot.js";
import { afterRepair, afterVerify } from "./routes.js";
import { timed } from "../nodes/timed.js";

/**
 * One task slot's per-slot work (a queue item of the postgres backend): the build graph's design →
 * checks → solve → verify → repair loop with the same nodes and routers on a state holding one
 * slot, then the calibrator's verdict on its task. Wiring only.
 */
export const slotGraph = new StateGraph(SlotState)
  .addNode("design_task", timed("design_task", designTask))
  .addNode("write_checks", timed("write_checks", writeChecks))
  .addNode("solve", timed("solve", solve))
  .addNode("verify", timed("verify", verify))
  .addNode("repair", timed("repair", repair))
  .addNode("calibrate_slot", timed("calibrate", calibrateSlot))
  .addEdge(START, "design_task")
  .addEdge("design_task", "write_checks")
  .addEdge("write_checks", "solve")
  .addEdge("solve", "verify")
  .addConditionalEdges("verify", (s) => (afterVerify(s) === "repair" ? "repair" : "calibrate_slot"), ["repair", "calibrate_slot"])
  .addConditionalEdges("repair", (s) => (afterRepair(s) === "calibrate" ? "calibrate_slot" : afterRepair(s)), ["write_checks", "solve", "calibrate_slot"])
  .addEdge("calibrate_slot", END);

/** The slot graph with a checkpointer (a retried item resumes from its last completed node). */
export function compileSlotGraph(checkpointer: BaseCheckpointSaver) {
  return slotGraph.compile({ checkpointer });
}
