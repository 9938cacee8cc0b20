import type { FoundryConfig } from "../core/config.js";
import { FoundryError, quote } from "../core/errors.js";
import { createLlmRuntime, type LlmRuntime, type LlmRuntimeOptions } from "../llm/llm-runtime.js";
import type { EvaluationSettings } from "./settings.js";
import { agentFactory, agentKind } from "./agents/registry.js";
import { replayAgent } from "./agents/replay.js";
import { AGENT_RUNTIME_ROLE } from "./agents/model.js";
import { checkCustomerSpec, customerFactory } from "./customer/registry.js";
import type { AgentFactory } from "./agents/types.js";
import type { CustomerFactory } from "./customer/types.js";

/** The agent and customer of an evaluation, and the LLM runtime they share (created on first need). */
export interface EpisodeFactories {
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
export function episodeFactories(s: Pick<EvaluationSettings, "agent" | "user_sim">, config: FoundryConfig, runtimeOptions: LlmRuntimeOptions = {}, replayFile?: string): EpisodeFactories {
  const kind = agentKind(s.agent);
  const simKind = checkCustomerSpec(s.user_sim);
  if (kind === "probe" && simKind === "llm") throw new FoundryError("USAGE", `--agent ${s.agent} works synchronously and takes only --user-sim deterministic, got ${quote(s.user_sim)}`, { path: "--user-sim" }, s.user_sim);
  let runtime: LlmRuntime | null = null;
  const getRuntime = (): LlmRuntime => {
    const models = { ...config.models, ...(kind === "model" ? { [AGENT_RUNTIME_ROLE]: s.agent } : {}), ...(simKind === "llm" ? { "user-sim": s.user_sim } : {}) };
    runtime ??= createLlmRuntime({ ...config, models }, runtimeOptions);
    return runtime;
  };
  return {
    kind,
    simKind,
    agent: kind === "replay" && replayFile !== undefined ? replayAgent(s.agent, replayFile) : agentFactory(s.agent, getRuntime),
    preflight() {
      if (kind === "model" || simKind === "llm") getRuntime().preflight([...(kind === "model" ? [AGENT_RUNTIME_ROLE] : []), ...(simKind === "llm" ? (["user-sim"] as const) : [])]);
    },
    customer: () => customerFactory(s.user_sim, getRuntime),
    close: () => (runtime as LlmRuntime | null)?.close(),
  };
}
