import { join } from "node:path";
import { SimulatedEvaluation, type SimulatedEpisode } from "../schemas/index.js";
import type { EvalSimulatedTask } from "./load-release.js";
import type { EvaluationSettings } from "./settings.js";
import type { AgentFactory } from "./agents/types.js";
import { AgentFailure } from "./agents/types.js";
import { EnvSimFailure } from "./env-sim/failure.js";
import { runSimulatedOnlyEpisode, simulatedCallBound } from "./env-sim/simulated-only-episode.js";
import type { EnvSimModel } from "./episode-factories.js";
import { episodeSeed } from "./seeds.js";
import { writeJsonFile } from "./results-log.js";

/** File (in an evaluation folder) of the simulated-only tasks' results, and the folder of their traces. */
export const SIMULATED_ONLY_FILE = "simulated-only.json";
export const SIMULATED_ONLY_TRACES = "simulated-only-traces";

export interface SimulatedOnlyContext {
  settings: EvaluationSettings;
  agent: AgentFactory;
  /** The env-sim role's model and structured-output mode; null in executable mode. */
  envSim: { model: EnvSimModel; native: boolean } | null;
  out: string;
}

/** Why a simulated-only task is not run in this evaluation, or null when it is. */
function skipReason(ctx: SimulatedOnlyContext): string | null {
  if (ctx.settings.env !== "simulated") return `a simulated-only task has no world and no executable checks: it runs only under --env simulated (scored by its rubric), never under --env ${ctx.settings.env}`;
  if (!ctx.agent.createWorldless) return `--agent ${ctx.settings.agent} needs a world or a golden trace, which a simulated-only task has not (model agents and noop run such tasks)`;
  if (ctx.settings.user_sim !== "deterministic") return `simulated-only episodes run with the deterministic customer (the scenario's own facts); --user-sim ${ctx.settings.user_sim} is not supported for them`;
  if (ctx.settings.ablation !== "none") return `--ablation ${ctx.settings.ablation} is defined for executable tasks only`;
  return null;
}

/**
 * The release's selected simulated-only tasks in one evaluation, reported apart from the executable
 * tasks (`simulated-only.json`, never in summary.json's figures): under `--env simulated`, every
 * (task, condition, run) is one episode of the evaluator's simulated-only driver (the simulator
 * answers, the rubric verifier votes, every judgment kept); otherwise each task is skipped with
 * the reason. Run afresh each time (not resumed); a provider failure errors the episode.
 */
export async function evaluateSimulatedOnly(tasks: readonly EvalSimulatedTask[], ctx: SimulatedOnlyContext): Promise<{ result: SimulatedEvaluation; path: string } | null> {
  if (tasks.length === 0) return null;
  const reason = skipReason(ctx);
  const episodes: SimulatedEpisode[] = [];
  const { settings } = ctx;
  if (reason === null && ctx.envSim) {
    const sim = ctx.envSim;
    for (const t of tasks)
      for (const condition of settings.conditions)
        for (let run = 0; run < settings.runs; run++) {
          const seed = episodeSeed(settings.seed, t.task.id, condition, run);
          const key = `${t.task.id}-${condition}-${run}`;
          const base = { task: t.task.id, domain: t.domain.id, condition, run, seed };
          try {
            const agent = ctx.agent.createWorldless!({ task: t.task.id, seed, role: t.domain.card.role });
            const e = await runSimulatedOnlyEpisode({
              task: { ...t.task, max_turns: settings.max_turns ?? t.task.max_turns },
              config: t.env_config(),
              documents: t.domain.documents,
              domainTitle: t.domain.card.title,
              agent: (session) => agent.run(session),
              simulator: sim.model(t.task.id, `${condition}-${run}`),
              judge: (variant) => sim.model(t.task.id, `${condition}-${run}/${variant}`),
              native: sim.native,
              trace: { role: "agent", label: settings.agent, seed, condition },
              bounds: { maxToolCalls: settings.max_tool_calls ?? simulatedCallBound(t.task), wallTimeMs: settings.wall_time_ms },
              faults: { events: settings.fault_events, duration: settings.fault_duration },
            });
            const trace = `${SIMULATED_ONLY_TRACES}/${key}.json`;
            writeJsonFile(join(ctx.out, trace), e.trace);
            episodes.push({ ...base, status: "completed", end: e.end, error: null, criteria: e.criteria, goal: e.goal, process: e.process, protection: e.protection, strict_success: e.passed, trace });
          } catch (err) {
            if (!(err instanceof AgentFailure || err instanceof EnvSimFailure)) throw err;
            episodes.push({ ...base, status: "errored", end: null, error: `${err.errorClass}: ${err.message}`, criteria: [], goal: false, process: false, protection: false, strict_success: false, trace: null });
          }
        }
  }
  const completed = episodes.filter((e) => e.status === "completed");
  const passed = completed.filter((e) => e.strict_success).length;
  const result = SimulatedEvaluation.parse({
    env: settings.env,
    skipped: reason === null ? [] : tasks.map((t) => ({ task: t.task.id, domain: t.domain.id, reason })),
    episodes,
    strict_success: { passed, completed: completed.length, rate: completed.length === 0 ? null : passed / completed.length },
  });
  const path = join(ctx.out, SIMULATED_ONLY_FILE);
  writeJsonFile(path, result);
  return { result, path };
}
