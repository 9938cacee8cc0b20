import type { FoundryConfig } from "../core/config.js";
import { FoundryError, quote } from "../core/errors.js";
import { createLlmRuntime, type LlmRuntime, type LlmRuntimeOptions } from "../llm/llm-runtime.js";
import type { RuntimeChatModel } from "../llm/runtime-chat-model.js";
import type { EvaluationSettings } from "./settings.js";
import { agentFactory, agentKind } from "./agents/registry.js";
import { replayAgent } from "./agents/replay.js";
import { AGENT_RUNTIME_ROLE } from "./agents/model.js";
import { checkCustomerSpec, customerFactory } from "./customer/registry.js";
import type { AgentFactory } from "./agents/types.js";
import type { CustomerFactory } from "./customer/types.js";

/** The env-sim role's chat model of one episode (simulated, hybrid): charged to `item`, sampled apart by `variant`. */
export type EnvSimModel = (item: string, variant?: string) => RuntimeChatModel;

/** The agent and customer of an evaluation, and the LLM runtime they share (created on first need). */
export interface EpisodeFactories {
  /** The environment simulator's model; null in executable mode. */
  envSim(): EnvSimModel | null;
  kind: ReturnType<typeof agentKind>;
  simKind: "deterministic" | "llm";
  agent: AgentFactory;
  /** Before any work: the API keys the agent's and customer's models need. */
  preflight(): void;
  customer(): CustomerFactory;
  close(): void;
}

/**
 * Build the agent and customer a spec names, the way `synth evaluate` and a `synth worker` both do.
 * A probe with an llm customer is a usage error. `replayFile` reads a `replay:FILE` agent's trace
 * from another path (a worker's copy of the coordinator's file); the spec stays as given.
 */
export function episodeFactories(s: Pick<EvaluationSettings, "agent" | "user_sim"> & Partial<Pick<EvaluationSettings, "env" | "env_sim">>, config: FoundryConfig, runtimeOptions: LlmRuntimeOptions = {}, replayFile?: string): EpisodeFactories {
  const kind = agentKind(s.agent);
  const simKind = checkCustomerSpec(s.user_sim);
  if (kind === "probe" && simKind === "llm") throw new FoundryError("USAGE", `--agent ${s.agent} works synchronously and takes only --user-sim deterministic, got ${quote(s.user_sim)}`, { path: "--user-sim" }, s.user_sim);
  const envSim = s.env !== undefined && s.env !== "executable" && s.env_sim ? s.env_sim : null;
  let runtime: LlmRuntime | null = null;
  const getRuntime = (): LlmRuntime => {
    const models = { ...config.models, ...(kind === "model" ? { [AGENT_RUNTIME_ROLE]: s.agent } : {}), ...(simKind === "llm" ? { "user-sim": s.user_sim } : {}), ...(envSim ? { "env-sim": envSim } : {}) };
    runtime ??= createLlmRuntime({ ...config, models }, runtimeOptions);
    return runtime;
  };
  return {
    kind,
    simKind,
    agent: kind === "replay" && replayFile !== undefined ? replayAgent(s.agent, replayFile) : agentFactory(s.agent, getRuntime),
    preflight() {
      if (kind === "model" || simKind === "llm" || envSim) getRuntime().preflight([...(kind === "model" ? [AGENT_RUNTIME_ROLE] : []), ...(simKind === "llm" ? (["user-sim"] as const) : []), ...(envSim ? (["env-sim"] as const) : [])]);
    },
    customer: () => customerFactory(s.user_sim, getRuntime),
    envSim: () => (envSim ? (item, variant) => getRuntime().chatModel({ role: "env-sim", stage: "simulate", item, ...(variant ? { variant } : {}) }) as RuntimeChatModel : null),
    close: () => (runtime as LlmRuntime | null)?.close(),
  };
}

/** What an episode's runner needs of the environment simulator (null in executable mode), the same for `synth evaluate` and a worker. */
export function envSimContext(f: Pick<EpisodeFactories, "envSim">, settings: Pick<EvaluationSettings, "simulate_ops">, config: Pick<FoundryConfig, "structured_output">): { model: EnvSimModel; native: boolean; simulateOps: ReadonlySet<string> } | null {
  const model = f.envSim();
  return model ? { model, native: config.structured_output === "native", simulateOps: new Set(settings.simulate_ops ?? []) } : null;
}
