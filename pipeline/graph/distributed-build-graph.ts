import { END, Send, START, StateGraph } from "@langchain/langgraph";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { BuildState, type BuildStateType } from "./state.js";
import { ingest } from "../nodes/ingest.js";
import { extractSop } from "../nodes/extract-sop.js";
import { simulatedEnvironment } from "../nodes/simulated-environment.js";
import { buildEnvironment } from "../nodes/build-environment.js";
import { slotWork } from "../nodes/slot-work.js";
import { calibrate } from "../nodes/calibrate.js";
import { collect } from "../nodes/collect.js";
import { timed } from "../nodes/timed.js";
import { afterIngest } from "./routes.js";
import { withSimulatedBranch } from "./simulated-branch.js";
import { reviewEnvironment, reviewSop } from "../nodes/review.js";
import { draftWorld, reviewWorld } from "../nodes/draft-world.js";

/** One Send branch per task slot, each waiting for its queue item. */
const fanOutSlots = (s: BuildStateType) => s.slots.map((slot) => new Send("slot_work", { ...s, slot, records: [] }));

/**
 * The synthesis graph of a postgres build (the coordinator's side): the same stages as
 * build-graph.ts, with each slot's design → checks → solve → verify → repair → calibrate run as a
 * queue item on the workers (slot-graph.ts) and awaited by `slot_work`; the release rules across
 * slots (calibrate) and collect run here. A simulated-only domain's branch runs here whole, as in
 * build-graph.ts (its nodes call models one task at a time; no slot goes to a worker). Wiring only.
 */
export const distributedGraph = withSimulatedBranch(
  new StateGraph(BuildState)
    .addNode("draft_world", timed("draft_world", draftWorld))
    .addNode("review_world", timed("review_world", reviewWorld))
    .addNode("ingest", timed("ingest", ingest))
    .addNode("extract_sop", timed("extract_sop", extractSop))
    .addNode("simulated_environment", timed("simulated_environment", simulatedEnvironment))
    .addNode("review_sop", timed("review_sop", reviewSop))
    .addNode("build_environment", timed("build_environment", buildEnvironment))
    .addNode("review_environment", timed("review_environment", reviewEnvironment))
    .addNode("slot_work", timed("slot_work", slotWork))
    .addNode("calibrate", timed("calibrate", calibrate))
    .addNode("collect", timed("collect", collect))
    .addEdge(START, "draft_world")
    .addEdge("draft_world", "review_world")
    .addEdge("review_world", "ingest")
    .addConditionalEdges("ingest", afterIngest, ["extract_sop", "simulated_environment"])
    .addEdge("extract_sop", "review_sop")
    .addEdge("review_sop", "build_environment")
    .addEdge("build_environment", "review_environment")
    .addConditionalEdges("review_environment", fanOutSlots, ["slot_work"])
    .addEdge("slot_work", "calibrate")
    .addEdge("calibrate", "collect")
    .addEdge("collect", END),
);

/** The coordinator's graph compiled with its checkpointer. */
export function compileDistributedBuildGraph(checkpointer: BaseCheckpointSaver) {
  return distributedGraph.compile({ checkpointer });
}
