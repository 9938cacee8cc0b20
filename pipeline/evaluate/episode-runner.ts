import type { Trace } from "../schemas/index.js";
import type { Condition, EpisodeResult, RoleUsage } from "../schemas/evaluation-result.js";
import { FoundryError } from "../core/errors.js";
import { planFaults, withFaults } from "../world/faults.js";
import { EpisodeDriver } from "../../validation/episode-driver.js";
import type { EvalTask } from "./load-release.js";
import type { EvaluationSettings } from "./settings.js";
import type { AgentFactory, AgentRun } from "./agents/types.js";
import { AgentFailure } from "./agents/types.js";
import { CustomerFailure, type Customer, type CustomerFactory } from "./customer/types.js";
import { Session, type EndReason } from "./session.js";
import { countCalls } from "./call-counts.js";
import { judgeEpisode } from "./judge-episode.js";
import { writeTrace, type EpisodeKey } from "./results-log.js";
import { givenDocuments, openingFor } from "./ablation.js";
import { visibleWorld } from "./agents/visible-world.js";
import type { JudgeInput } from "./judge-episode.js";
import type { RubricJudgment } from "../schemas/evaluation-result.js";
import type { EnvSimModel } from "./episode-factories.js";
import { EnvSimFailure } from "./env-sim/failure.js";
import { EnvSimulator } from "./env-sim/simulator.js";
import { SimulatedFaults } from "./env-sim/fault-rules.js";
import { hybridLayer, simulatedLayer, type ToolLayer } from "./env-sim/tool-layers.js";
import { judgeRubric } from "./rubric/judge-rubric.js";
import { rubricCriteria } from "./rubric/criteria.js";
import { judgeSimulatedEpisode } from "./rubric/judge-simulated.js";

/** One episode to run: a task, a condition, a run index and its seed. */
export interface PlannedEpisode {
  item: EvalTask;
  condition: Condition;
  run: number;
  seed: number;
}

/** What every episode of one evaluation shares. */
export interface RunnerContext {
  settings: EvaluationSettings;
  agent: AgentFactory;
  customer: CustomerFactory;
  /** Evaluation folder (traces are written under it). */
  out: string;
  /** Wall clock in epoch ms (tests may pin it). Default Date.now. */
  now?: () => number;
  /** Simulated and hybrid modes: the env-sim role's model, whether it answers natively structured, and hybrid's simulated operations. */
  envSim?: { model: EnvSimModel; native: boolean; simulateOps: ReadonlySet<string> } | null;
}

/** The key of a planned episode in results.jsonl and traces/. */
export function keyOf(p: PlannedEpisode): EpisodeKey {
  return { domain: p.item.domain.id, task: p.item.task.id, condition: p.condition, run: p.run };
}

/** Why an episode errored: a provider failure after its retries, or anything else the evaluator hit. */
function errorOf(e: unknown): { class: string; message: string } {
  if (e instanceof AgentFailure || e instanceof CustomerFailure || e instanceof EnvSimFailure) return { class: e.errorClass, message: e.message };
  if (FoundryError.is(e)) return { class: "internal", message: `${e.code}: ${e.message}` };
  return { class: "internal", message: e instanceof Error ? e.message : String(e) };
}

/** The agent's run, cut at the wall-time deadline (the session ends it; its late calls are answered "over"). */
async function runBounded(run: Promise<AgentRun>, session: Session, ms: number): Promise<AgentRun | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  run.catch(() => undefined);
  try {
    const r = await Promise.race([run, late]);
    if (r === null) session.close("wall_time");
    return r;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Run one episode: a fresh copy of the task's initial state, the fault plan of (task, condition,
 * run), the customer, the agent behind its session and bounds; then write the trace and judge it.
 * A provider failure after its retries (agent or customer) makes the episode `errored` with its
 * class and message; the trace so far is still written. Never throws for an episode's failure.
 */
export async function runEpisode(p: PlannedEpisode, ctx: RunnerContext): Promise<EpisodeResult> {
  const { settings } = ctx;
  const { task, golden, domain } = p.item;
  const goldenCalls = countCalls(golden).total;
  const plan = planFaults({ condition: p.condition, events: settings.fault_events, callsPerEvent: settings.fault_duration, seed: p.seed, totalCallsHint: goldenCalls });
  // Simulated: the same plan, counted over every agent call whoever answers it (env-sim/fault-rules.ts).
  const simFaults = settings.env === "simulated" ? new SimulatedFaults(plan) : null;
  const driver = EpisodeDriver.open(domain, task, { role: "agent", label: settings.agent, seed: p.seed, condition: p.condition, wrap: (inner) => (simFaults ? simFaults.wrapReference(inner) : withFaults(inner, plan)) });
  const layer = envLayer(p, ctx, driver, simFaults);
  let customer: Customer | null = null;
  let session: Session | null = null;
  let run: AgentRun | null = null;
  let error: { class: string; message: string } | null = null;
  let trace: Trace;
  try {
    try {
      customer = ctx.customer({ task, episode: driver.episode, seed: p.seed });
      const opening = openingFor(task, settings.ablation);
      const text = opening.facts.length > 0 ? (driver.episode.say("customer", opening.text, opening.facts).text ?? "") : await customer.open();
      const now = ctx.now ?? Date.now;
      session = new Session({
        driver,
        customer,
        scripted: customer.spec === "deterministic",
        tools: settings.tools,
        bounds: { maxTurns: settings.max_turns ?? task.max_turns, maxToolCalls: settings.max_tool_calls ?? Math.max(1, 3 * goldenCalls), deadline: now() + settings.wall_time_ms, now },
        opening: text,
        givenDocuments: givenDocuments(task, domain.documents, settings.ablation),
        businessDate: task.as_of,
        domainTitle: domain.card.title,
        ...(layer ? { layer } : {}),
      });
      const agent = ctx.agent.create({ world: visibleWorld(domain.world), golden, role: domain.card.role, task: task.id, seed: p.seed });
      run = await runBounded(agent.run(session), session, settings.wall_time_ms);
    } catch (e) {
      error = errorOf(e);
    }
    trace = driver.finish();
  } finally {
    driver.close();
  }
  const end: EndReason = error ? "errored" : (session?.end ?? (run?.end === "gave_up" ? "gave_up" : "finished"));
  const usage: Record<string, RoleUsage> = {};
  if (run?.usage) usage.agent = run.usage;
  const sim = customer?.usage();
  if (sim) usage["user-sim"] = sim;
  const written = writeTrace(ctx.out, keyOf(p), trace);
  const input = {
    task,
    trace,
    golden,
    domain,
    meta: {
      agent: settings.agent,
      user_sim: settings.user_sim,
      condition: p.condition,
      run: p.run,
      seed: p.seed,
      status: error ? "errored" : "completed",
      error,
      end,
      turns: session?.turns ?? 0,
      usage,
      trace_file: written.file,
      trace_sha256: written.sha256,
    },
  } satisfies JudgeInput;
  if (settings.env === "hybrid") return judgeEpisode(input, "hybrid");
  if (settings.env !== "simulated") return judgeEpisode(input);
  // Simulated: no executable state to check; the rubric verifier's majority decides (never the checks).
  let judgments = new Map<string, RubricJudgment[]>();
  if (!error) {
    try {
      judgments = await judgeRubric((variant) => ctx.envSim!.model(task.id, variant), ctx.envSim!.native, task, trace, rubricCriteria(task));
    } catch (e) {
      input.meta.status = "errored";
      input.meta.error = errorOf(e);
      input.meta.end = "errored";
    }
  }
  return judgeSimulatedEpisode(input, judgments);
}

/** The session's layer of the environment mode: the simulator answering (simulated) or rendering (hybrid); null for executable. */
function envLayer(p: PlannedEpisode, ctx: RunnerContext, driver: EpisodeDriver, faults: SimulatedFaults | null): ToolLayer | null {
  const env = ctx.settings.env;
  if (env === "executable") return null;
  const config = p.item.env_config;
  if (!config || !ctx.envSim) throw new FoundryError("EVALUATION_NO_ENV_CONFIG", `task ${p.item.task.id} has no environment configuration; --env ${env} needs a release that ships them`);
  const sim = new EnvSimulator({ model: ctx.envSim.model(p.item.task.id, `${p.condition}-${p.run}`), config: config(), episode: driver.episode, native: ctx.envSim.native });
  return env === "simulated" ? simulatedLayer(sim, faults as SimulatedFaults) : hybridLayer(sim, ctx.envSim.simulateOps);
}
