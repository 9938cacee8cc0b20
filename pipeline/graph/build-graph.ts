import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { BuildState, type BuildStateType } from "./state.js";
import { ingest } from "../nodes/ingest.js";
import { extractSop } from "../nodes/extract-sop.js";
import { simulatedEnvironment } from "../nodes/simulated-environment.js";
import { buildEnvironment } from "../nodes/build-environment.js";
import { designTask } from "../nodes/design-task.js";
import { writeChecks } from "../nodes/write-checks.js";
import { solve } from "../nodes/solve.js";
import { verify } from "../nodes/verify.js";
import { repair } from "../nodes/repair.js";
import { calibrate } from "../nodes/calibrate.js";
import { collect } from "../nodes/collect.js";
import { afterIngest, afterRepair, afterVerify } from "./routes.js";
import { withSimulatedBranch } from "./simulated-branch.js";
import { timed } from "../nodes/timed.js";
import { reviewEnvironment, reviewSop } from "../nodes/review.js";
import { draftWorld, reviewWorld } from "../nodes/draft-world.js";

/** One Send branch per task slot; straight to collect when the slots' records were reused. */
const fanOutSlots = (s: BuildStateType) => (s.reused ? "collect" : s.slots.map((slot) => new Send("design_task", { ...s, slot, records: [] })));

/** The synthesis graph: wiring only; every node lives in pipeline/nodes/. */
export const graph = withSimulatedBranch(
  new StateGraph(BuildState)
    .addNode("draft_world", timed("draft_world", draftWorld))
    .addNode("review_world", timed("review_world", reviewWorld))
    .addNode("ingest", timed("ingest", ingest))
    .addNode("extract_sop", timed("extract_sop", extractSop))
    .addNode("simulated_environment", timed("simulated_environment", simulatedEnvironment))
    .addNode("review_sop", timed("review_sop", reviewSop))
    .addNode("build_environment", timed("build_environment", buildEnvironment))
    .addNode("review_environment", timed("review_environment", reviewEnvironment))
    .addNode("design_task", timed("design_task", designTask))
    .addNode("write_checks", timed("write_checks", writeChecks))
    .addNode("solve", timed("solve", solve))
    .addNode("verify", timed("verify", verify))
    .addNode("repair", timed("repair", repair))
    .addNode("calibrate", timed("calibrate", calibrate))
    .addNode("collect", timed("collect", collect))
    .addEdge(START, "draft_world")
    .addEdge("draft_world", "review_world")
    .addEdge("review_world", "ingest")
    .addConditionalEdges("ingest", afterIngest, ["extract_sop", "simulated_environment"])
    .addEdge("extract_sop", "review_sop")
    .addEdge("review_sop", "build_environment")
    .addEdge("build_environment", "review_environment")
    .addConditionalEdges("review_environment", fanOutSlots, ["design_task", "collect"])
    .addEdge("design_task", "write_checks")
    .addEdge("write_checks", "solve")
    .addEdge("solve", "verify")
    .addConditionalEdges("verify", afterVerify, ["repair", "calibrate"])
    .addConditionalEdges("repair", afterRepair, ["write_checks", "solve", "calibrate"])
    .addEdge("calibrate", "collect")
    .addEdge("collect", END),
);

/** The graph compiled with a checkpointer (for `synth build` / `synth resume`). */
export function compileBuildGraph(checkpointer?: BaseCheckpointSaver) {
  return graph.compile(checkpointer ? { checkpointer } : {});
}

/** Compiled once without a checkpointer, for LangGraph tooling (langgraph.json). */
export const buildGraph = graph.compile();
