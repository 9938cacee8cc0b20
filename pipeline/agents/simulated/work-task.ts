import { sha256, stableJson } from "../../core/canonical-json.js";
import type { EnvConfig, SimulatedTask, SimulatedVerdict, Trace } from "../../schemas/index.js";
import type { KnowledgeDocument } from "../../world/documents-tool.js";
import type { RuntimeChatModel } from "../../llm/runtime-chat-model.js";
import { runSimulatedOnlyEpisode, simulatedCallBound, type SimulatedOnlyEpisode } from "../../evaluate/env-sim/simulated-only-episode.js";
import { runModelAgent } from "../../evaluate/agents/model.js";

/** Wall-time bound of one build episode (ms). */
const WALL_TIME_MS = 10 * 60_000;

/** The solution plan as the solver reads it after the customer's request. */
export function planText(task: Pick<SimulatedTask, "solution_plan">): string {
  return `\n\n---\nSolution plan (one correct way; follow it):\n${task.solution_plan.map((s) => `${s.step}. ${s.tool} ${JSON.stringify(s.args)} — ${s.why}${s.clauses.length > 0 ? ` (${s.clauses.join(", ")})` : ""}`).join("\n")}`;
}

export interface WorkInput {
  task: SimulatedTask;
  config: EnvConfig;
  documents: readonly KnowledgeDocument[];
  domainTitle: string;
  /** The agent's professional role (the card's). */
  role: string;
  agent: RuntimeChatModel;
  /** The env-sim role's model: simulator and rubric judge. */
  simulator: RuntimeChatModel;
  native: boolean;
  seed: number;
  /** `golden` for the solver's run, `probe` for the calibrator's. */
  traceRole: Trace["role"];
  /** The run's label (trace label and the models' cache variant): e.g. `solver-1`, `calibrator-2`. */
  label: string;
  withPlan: boolean;
}

/**
 * One run of a model agent on a simulated-only task, on the evaluator's one episode driver
 * (runSimulatedOnlyEpisode): the simulator answers, the rubric verifier votes. Each run is its own
 * sample (cache variant = label) of the agent, the simulator and each judgment round.
 */
export async function workSimulatedTask(p: WorkInput): Promise<SimulatedOnlyEpisode> {
  const variant = (v: string) => ({ item: p.task.id, variant: v });
  const agent = p.agent.forItem(variant(p.label));
  return runSimulatedOnlyEpisode({
    task: p.task,
    config: p.config,
    documents: p.documents,
    domainTitle: p.domainTitle,
    agent: (session) => runModelAgent(agent, session, p.role, () => null, p.withPlan ? planText(p.task) : ""),
    simulator: p.simulator.forItem(variant(`${p.label}/simulate`)),
    judge: (v) => p.simulator.forItem(variant(`${p.label}/${v}`)),
    native: p.native,
    trace: { role: p.traceRole, label: p.label, seed: p.seed, condition: "E0" },
    bounds: { maxToolCalls: simulatedCallBound(p.task), wallTimeMs: WALL_TIME_MS },
  });
}

/** The stored verdict of an episode on the trajectory file's bytes (`stableJson(trace)`). */
export function storedVerdict(task: string, episode: SimulatedOnlyEpisode): { trajectory: string; verdict: SimulatedVerdict } {
  const trajectory = stableJson(episode.trace);
  return { trajectory, verdict: { task, trajectory_sha256: sha256(trajectory), criteria: episode.criteria, goal: episode.goal, process: episode.process, protection: episode.protection, passed: episode.passed } };
}
