import { FoundryError } from "../core/errors.js";
import { modelFor, type AgentRole, type FoundryConfig } from "../core/config.js";
import type { Calibrator, EnvConfigWriter, Repairer, RubricWriter, Solver, TaskDesigner, WorldDrafter } from "../agents/types.js";
import type { Sop } from "../schemas/index.js";
import type { LlmRuntime } from "../llm/llm-runtime.js";
import { calibrationRuns } from "../agents/calibrator/runs.js";
import { lazyCalibrator, lazyDesigner, lazyRepairer, lazyRubricWriter, lazySolver, lazyWorldDrafter, type Lazy } from "./lazy-strategies.js";
import { modelSettings, parseModelSpec, type ModelSettings } from "../llm/model-registry.js";
import type { RuntimeChatModel } from "../llm/runtime-chat-model.js";

/**
 * The strategy descriptor of a model role: its spec and every setting that changes its answers,
 * e.g. `openai:gpt-4.1 (temperature 0, base_url http://127.0.0.1:8000/v1, structured_output native)`.
 * Part of the stage-cache key of every stage the role works in, and recorded in build reports.
 */
export function strategyDescriptor(spec: string, settings: ModelSettings): string {
  const parts = [`temperature ${settings.temperature}`];
  if (settings.base_url) parts.push(`base_url ${settings.base_url}`);
  if (settings.num_ctx !== null) parts.push(`num_ctx ${settings.num_ctx}`);
  parts.push(`structured_output ${settings.structured_output}`);
  return `${spec} (${parts.join(", ")})`;
}

export interface Strategies {
  designer: Lazy<TaskDesigner>;
  rubricWriter: Lazy<RubricWriter>;
  solver: Lazy<Solver>;
  repairer: Lazy<Repairer>;
  calibrator: Lazy<Calibrator>;
  /**
   * The environment builder's llm strategy, which drafts a missing world.yaml in the build
   * (nodes/draft-world.ts); null without a model for the role: the deterministic draft is a
   * person's starting point (`synth draft-world`), never built unreviewed.
   */
  worldDrafter: Lazy<WorldDrafter> | null;
  /** The environment builder's llm writer of environment configurations (collect); null without a model for the role: the world model's rendering is used. */
  envConfigWriter: EnvConfigWriter | null;
  extractSop(dir: string): Promise<Sop>;
  /** The models of the simulated-only branch's roles (SIMULATED_ROLES), where configured; see nodes/simulated-*.ts. */
  simulated: SimulatedModels;
  /** Role → `deterministic` or the `provider:model` it runs on. */
  names: Record<string, string>;
}

/**
 * The roles a simulated-only domain (`environment: simulated`) needs a model for: the environment
 * builder writes the simulator's configuration, the task designer the task, plan and rubric, the
 * solver works the task with the plan under the simulator, env-sim simulates the environment and
 * judges the trajectory (the rubric verifier, as in simulated evaluation), the repairer revises a
 * failing task, the calibrator's model agent works it without the plan.
 */
export const SIMULATED_ROLES = ["environment-builder", "task-designer", "solver", "repairer", "calibrator", "env-sim"] as const satisfies readonly AgentRole[];
export type SimulatedRole = (typeof SIMULATED_ROLES)[number];

/** The configured model of each simulated-only role (absent: none configured), with its `provider:model`. */
export type SimulatedModels = Partial<Record<SimulatedRole, { model: RuntimeChatModel; spec: string; native: boolean }>>;

/** Roles of the build whose work is deterministic by design: the gates never ask a model. */
const DETERMINISTIC_BY_DESIGN: AgentRole[] = ["verifier"];
const BUILD_ROLES: AgentRole[] = ["sop-extractor", "environment-builder", "task-designer", "rubric-writer", "solver", "repairer", "calibrator", ...DETERMINISTIC_BY_DESIGN];

/**
 * The strategy of every role for this configuration: deterministic unless a model is configured for
 * the role, then the llm strategy on that role's model (through the LLM runtime's queue, retries,
 * cache and accounting).
 */
export function chooseStrategies(config: FoundryConfig, runtime: LlmRuntime | null, opts: { simulatedDomains?: boolean } = {}): Strategies {
  const names: Record<string, string> = {};
  for (const role of BUILD_ROLES) names[role] = modelFor(config, role);
  const fixed = DETERMINISTIC_BY_DESIGN.filter((r) => names[r] !== "deterministic" && config.models[r] !== undefined);
  if (fixed.length > 0) throw new FoundryError("STRATEGY_UNAVAILABLE", `${fixed.join(", ")} run${fixed.length > 1 ? "" : "s"} deterministically by design (the gates never ask a model): remove the model setting`, { path: `models.${fixed[0]}` });
  for (const r of DETERMINISTIC_BY_DESIGN) names[r] = "deterministic";
  // env-sim simulates the environment of simulated-only domains; a build without one would ignore it.
  const simulators = (["user-sim", "env-sim"] as const).filter((r) => config.models[r] !== undefined && config.models[r] !== "deterministic" && !(r === "env-sim" && opts.simulatedDomains));
  if (simulators.length > 0) {
    throw new FoundryError(
      "STRATEGY_UNAVAILABLE",
      `${simulators.join(" and ")} ${simulators.length > 1 ? "take" : "takes"} part in agent evaluation${simulators.includes("env-sim") ? " (and in building simulated-only domains, none of which this build has)" : ""}; the build's golden traces and probes use the scripted customer: remove the setting`,
      { path: `models.${simulators[0]}` },
      config.models[simulators[0] as "user-sim"],
    );
  }
  // Before any work: a configured provider whose API key is missing is reported now, for every role
  // at once, not as the first failing call of several parallel branches.
  runtime?.preflight(BUILD_ROLES.filter((r) => names[r] !== "deterministic"));
  // The descriptor of a model role holds everything that can change its answers, so a changed
  // base URL, temperature or structured-output mode misses the stage cache as well as the response cache.
  for (const r of BUILD_ROLES) {
    const ref = names[r] === "deterministic" ? null : parseModelSpec(names[r] as string);
    if (ref) names[r] = strategyDescriptor(ref.spec, modelSettings(config, ref));
  }
  const model = (role: AgentRole, stage: string) => {
    if (names[role] === "deterministic") return null;
    const m = runtime?.chatModel({ role, stage });
    if (!m) throw new FoundryError("LLM_NOT_CONFIGURED", `a model is configured for ${role} but the LLM runtime could not provide it`);
    return m;
  };
  const designerModel = model("task-designer", "design_task");
  const rubricModel = model("rubric-writer", "write_checks");
  const solverModel = model("solver", "solve");
  const repairModel = model("repairer", "repair");
  const extractorModel = model("sop-extractor", "extract_sop");
  const calibratorModel = model("calibrator", "calibrate");
  const drafterModel = model("environment-builder", "draft_world");
  const envConfigModel = model("environment-builder", "env_config");
  const simulated: SimulatedModels = {};
  if (opts.simulatedDomains) {
    for (const role of SIMULATED_ROLES) {
      const spec = modelFor(config, role);
      if (spec === "deterministic") continue;
      const m = runtime?.chatModel({ role, stage: `simulated_${role}` });
      if (!m) throw new FoundryError("LLM_NOT_CONFIGURED", `a model is configured for ${role} but the LLM runtime could not provide it`);
      const ref = parseModelSpec(spec) as NonNullable<ReturnType<typeof parseModelSpec>>;
      simulated[role] = { model: m, spec: ref.spec, native: config.structured_output === "native" };
      // env-sim is no executable build role: its descriptor is recorded here, with the build's others.
      if (role === "env-sim") names[role] = strategyDescriptor(ref.spec, modelSettings(config, ref));
    }
  }
  // Retries and timeouts are the runtime's (one budget, `max_retries`); the strategies only choose how to ask.
  const llm = { native: config.structured_output === "native" };
  return {
    // Each strategy's module is imported on its first call (lazy-strategies.ts).
    designer: lazyDesigner(async () => (designerModel ? new (await import("../agents/task-designer/llm.js")).LlmTaskDesigner({ model: designerModel, ...llm }) : new (await import("../agents/task-designer/deterministic.js")).DeterministicTaskDesigner())),
    rubricWriter: lazyRubricWriter(async () => (rubricModel ? new (await import("../agents/rubric-writer/llm.js")).LlmRubricWriter({ model: rubricModel, ...llm }) : new (await import("../agents/rubric-writer/deterministic.js")).DeterministicRubricWriter())),
    solver: lazySolver(async () => (solverModel ? new (await import("../agents/solver/llm.js")).LlmSolver({ model: solverModel }) : new (await import("../agents/solver/deterministic.js")).DeterministicSolver())),
    repairer: lazyRepairer(async () => (repairModel ? new (await import("../agents/repairer/llm.js")).LlmRepairer({ model: repairModel, ...llm }) : new (await import("../agents/repairer/deterministic.js")).DeterministicRepairer())),
    calibrator: lazyCalibrator(
      async () =>
        calibratorModel
          ? new (await import("../agents/calibrator/llm.js")).LlmCalibrator({ model: calibratorModel, name: (parseModelSpec(modelFor(config, "calibrator")) as { spec: string }).spec })
          : new (await import("../agents/calibrator/deterministic.js")).DeterministicCalibrator(),
      // The same as each calibrator's own settings(): the card's runs for a model, nothing for the probe panel.
      (ctx) => (calibratorModel ? { runs: calibrationRuns(ctx) } : null),
    ),
    worldDrafter: drafterModel
      ? lazyWorldDrafter(async () => new (await import("../agents/environment-builder/llm.js")).LlmWorldDrafter({ model: drafterModel, ...llm, modelName: (parseModelSpec(modelFor(config, "environment-builder")) as { spec: string }).spec }))
      : null,
    envConfigWriter: envConfigModel
      ? { write: async (base, input) => new (await import("../agents/environment-builder/env-config-llm.js")).LlmEnvConfigWriter({ model: envConfigModel, ...llm }).write(base, input) }
      : null,
    // The extractor (and the Markdown parser under it) loads only when an extraction runs: a
    // rebuild whose extraction is cached never parses a document.
    extractSop: async (dir) => {
      const { extractDomainSop } = await import("../sop/extract-domain.js");
      return extractorModel ? extractDomainSop(dir, { strategy: "llm", model: extractorModel, llm: { concurrency: config.concurrency, ...llm } }) : extractDomainSop(dir, {});
    },
    simulated,
    names,
  };
}
