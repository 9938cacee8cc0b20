import { END } from "@langchain/langgraph";
import { simulatedDesign } from "../nodes/simulated-design.js";
import { simulatedSolve } from "../nodes/simulated-solve.js";
import { simulatedRepair } from "../nodes/simulated-repair.js";
import { simulatedCalibrate } from "../nodes/simulated-calibrate.js";
import { simulatedCollect } from "../nodes/simulated-collect.js";
import { timed } from "../nodes/timed.js";
import { afterSimulatedRepair, afterSimulatedSolve } from "./routes.js";
import type { BuildUpdate } from "./state.js";

type Node = (state: never, config?: never) => Promise<BuildUpdate>;
/** The part of a StateGraph builder the branch uses (names beyond the graph's own type: hence the loose signature). */
interface Builder {
  addNode(name: string, node: Node): Builder;
  addEdge(from: string, to: string): Builder;
  addConditionalEdges(from: string, route: (s: never) => string, to: string[]): Builder;
}

/**
 * A simulated-only domain's branch after its first node (`simulated_environment`, which each graph
 * adds and routes to from ingest): design → solve (and the rubric verifier's vote) → repair loop →
 * calibrate → collect → END. Wiring only; the embedded and the postgres coordinator's graphs both
 * add it, so the branch is wired once.
 */
export function withSimulatedBranch<G>(graph: G): G {
  (graph as unknown as Builder)
    .addNode("simulated_design", timed("simulated_design", simulatedDesign) as Node)
    .addNode("simulated_solve", timed("simulated_solve", simulatedSolve) as Node)
    .addNode("simulated_repair", timed("simulated_repair", simulatedRepair) as Node)
    .addNode("simulated_calibrate", timed("simulated_calibrate", simulatedCalibrate) as Node)
    .addNode("simulated_collect", timed("simulated_collect", simulatedCollect) as Node)
    .addEdge("simulated_environment", "simulated_design")
    .addEdge("simulated_design", "simulated_solve")
    .addConditionalEdges("simulated_solve", afterSimulatedSolve as (s: never) => string, ["simulated_repair", "simulated_calibrate"])
    .addConditionalEdges("simulated_repair", afterSimulatedRepair as (s: never) => string, ["simulated_solve", "simulated_calibrate"])
    .addEdge("simulated_calibrate", "simulated_collect")
    .addEdge("simulated_collect", END);
  return graph;
}
