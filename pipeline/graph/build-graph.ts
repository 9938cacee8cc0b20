import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { BuildState, type BuildStateType } from "./state.js";
import { ingest } from "../nodes/ingest.js";
import { extractSop } from "../nodes/extract-sop.js";
import { buildEnvironment } from "../nodes/build-environment.js";
import { designTask } from "../nodes/design-task.js";
import { writeChecks } from "../nodes/write-checks.js";
import { solve } from "../nodes/solve.js";
import { verify } from "../nodes/verify.js";
import { repair } from "../nodes/repair.js";
import { calibrate } from "../nodes/calibrate.js";
import { collect } from "../nodes/collect.js";
import { afterRepair, afterVerify } from "./routes.js";

/** One Send branch per task slot. */
const fanOutSlots = (s: BuildStateType) => s.slots.map((slot) => new Send("design_task", { ...s, slot, records: [] }));

/** The synthesis graph: wiring only; every node lives in pipeline/nodes/. */
export const graph = new StateGraph(BuildState)
  .addNode("ingest", ingest)
  .addNode("extract_sop", extractSop)
  .addNode("build_environment", buildEnvironment)
  .addNode("design_task", designTask)
  .addNode("write_checks", writeChecks)
  .addNode("solve", solve)
  .addNode("verify", verify)
  .addNode("repair", repair)
  .addNode("calibrate", calibrate)
  .addNode("collect", collect)
  .addEdge(START, "ingest")
  .addEdge("ingest", "extract_sop")
  .addEdge("extract_sop", "build_environment")
  .addConditionalEdges("build_environment", fanOutSlots, ["design_task"])
  .addEdge("design_task", "write_checks")
  .addEdge("write_checks", "solve")
  .addEdge("solve", "verify")
  .addConditionalEdges("verify", afterVerify, ["repair", "calibrate"])
  .addConditionalEdges("repair", afterRepair, ["write_checks", "solve", "calibrate"])
  .addEdge("calibrate", "collect")
  .addEdge("collect", END);

/** The graph compiled with a checkpointer (for `synth build` / `synth resume`). */
export function compileBuildGraph(checkpointer?: BaseCheckpointSaver) {
  return graph.compile(checkpointer ? { checkpointer } : {});
}

/** Compiled once without a checkpointer, for LangGraph tooling (langgraph.json). */
export const buildGraph = graph.compile();
