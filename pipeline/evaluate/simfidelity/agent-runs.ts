import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FoundryConfig } from "../../core/config.js";
import type { LlmRuntimeOptions } from "../../llm/llm-runtime.js";
import { Trace } from "../../schemas/index.js";
import type { EvaluationResult } from "../../schemas/evaluation-result.js";
import { DEFAULT_WALL_TIME_MS, evaluate, type EvaluateOutcome } from "../evaluate.js";
import type { EvaluationSettings } from "../settings.js";
import { agentSlug } from "../agents/registry.js";
import type { RankedAgent } from "./report-schema.js";
import { RANKING_CONDITIONS } from "./default-agents.js";


export interface AgentRunsOptions {
  /** The release folder (already verified and loaded by the caller). */
  releaseDir: string;
  agents: readonly string[];
  simulator: string;
  tasks: string[] | null;
  domains: string[] | null;
  /** Where the evaluations are written: `<out>/<env>/<agent-slug>/`. */
  out: string;
  config: FoundryConfig;
  runtime?: LlmRuntimeOptions;
}

/** The settings of one ranking evaluation: the CLI's defaults at E0, one run, seed 0, the deterministic customer. */
export function rankingSettings(agent: string, env: "executable" | "simulated", simulator: string, sel: Pick<AgentRunsOptions, "tasks" | "domains">): Omit<EvaluationSettings, "release"> {
  return {
    agent,
    user_sim: "deterministic",
    conditions: [...RANKING_CONDITIONS],
    fault_events: 2,
    fault_duration: 2,
    runs: 1,
    tasks: sel.tasks,
    domains: sel.domains,
    max_turns: null,
    max_tool_calls: null,
    wall_time_ms: DEFAULT_WALL_TIME_MS,
    tools: "direct",
    ablation: "none",
    seed: 0,
    env,
    env_sim: env === "simulated" ? simulator : null,
    simulate_ops: null,
  };
}

/** One agent's executable traces (completed episodes), with their tasks. */
export interface AgentTraces {
  agent: string;
  traces: Array<{ domain: string; task: string; trace: Trace }>;
}

const rate = (s: EvaluationResult) => ({ rate: s.overall.strict_success.rate, n: s.overall.strict_success.n });

function tracesOf(o: EvaluateOutcome, agent: string): AgentTraces {
  const done = o.results.filter((r) => r.status === "completed");
  return { agent, traces: done.map((r) => ({ domain: r.domain, task: r.task, trace: Trace.parse(JSON.parse(readFileSync(join(o.out, r.trace_file), "utf8"))) })) };
}

/**
 * Evaluate every agent on the selected tasks with `synth evaluate`'s own code path, under
 * --env executable (the release's checks judge) and under --env simulated with the simulator
 * measured (the rubric verifier judges), each into a fresh folder. Returns each agent's strict
 * success under both, and its executable traces (to be replayed teacher-forced).
 */
export async function runAgents(o: AgentRunsOptions): Promise<{ ranked: RankedAgent[]; traces: AgentTraces[] }> {
  const ranked: RankedAgent[] = [];
  const traces: AgentTraces[] = [];
  for (const agent of o.agents) {
    const scores: Partial<Record<"executable" | "simulated", { rate: number | null; n: number }>> = {};
    for (const env of ["executable", "simulated"] as const) {
      const outcome = await evaluate({ release: o.releaseDir, settings: rankingSettings(agent, env, o.simulator, o), out: join(o.out, env, agentSlug(agent)), fresh: true, config: o.config, ...(o.runtime ? { runtime: o.runtime } : {}) });
      scores[env] = rate(outcome.summary);
      if (env === "executable") traces.push(tracesOf(outcome, agent));
    }
    ranked.push({ agent, executable: scores.executable!.rate, simulated: scores.simulated!.rate, episodes: { executable: scores.executable!.n, simulated: scores.simulated!.n } });
  }
  return { ranked, traces };
}
