import { FoundryError, quote } from "../../core/errors.js";
import { parseModelSpec } from "../../llm/model-registry.js";
import type { EvaluationSettings } from "../settings.js";

export const ENV_MODES = ["executable", "simulated", "hybrid"] as const;
export type EnvMode = (typeof ENV_MODES)[number];

function usage(path: string, message: string, value?: unknown): never {
  throw new FoundryError("USAGE", message, { path }, value);
}

/**
 * The environment settings of an evaluation, checked before anything runs (each a usage error
 * naming the option): simulated and hybrid need a model for the env-sim role (none is needed, nor
 * taken, offline: executable is the default); every agent runs simulated, only agents that read
 * text (a model, noop) run hybrid; simulated offers the configuration's direct tools; --simulate-ops is hybrid's.
 */
export function checkEnvSettings(s: Pick<EvaluationSettings, "env" | "env_sim" | "simulate_ops" | "tools">, agentKind: string): void {
  if (s.env === "executable") {
    if (s.env_sim !== null) usage("--env-sim", `--env-sim is used only with --env simulated or hybrid, got --env ${s.env}`, s.env_sim);
    if (s.simulate_ops !== null) usage("--simulate-ops", "--simulate-ops is used only with --env hybrid", s.simulate_ops);
    return;
  }
  if (s.env_sim === null || s.env_sim === "deterministic") {
    usage("--env-sim", `--env ${s.env} needs a model for the env-sim role (the environment simulator): give --env-sim provider:model, or set models.env-sim / FOUNDRY_MODEL_ENV_SIM; offline, use --env executable (the default)`, s.env_sim);
  }
  try {
    parseModelSpec(s.env_sim);
  } catch {
    usage("--env-sim", `--env-sim expects provider:model, got ${quote(s.env_sim)}`, s.env_sim);
  }
  // Simulated: every agent acts through the session, whose calls the simulator answers (scripted agents' actions included).
  // Hybrid: the simulator renders text for an agent to read; a scripted agent reads structured results, so it would only rerun executable mode.
  if (s.env === "hybrid" && agentKind !== "model" && agentKind !== "noop") usage("--agent", `--env hybrid renders responses as text for an agent that reads them (provider:model or noop); a scripted agent (oracle, replay, probes) reads the runtime's structured results, which hybrid leaves unchanged: use --env executable or simulated`, agentKind);
  if (s.env === "simulated" && s.simulate_ops !== null) usage("--simulate-ops", "--simulate-ops is used only with --env hybrid (simulated mode simulates every business call)", s.simulate_ops);
  if (s.env === "simulated" && s.tools !== "direct") usage("--tools", "--env simulated offers the environment configuration's direct tools: use --tools direct", s.tools);
}

/** Hybrid's simulated operations: `--simulate-ops` checked against the selected domains' agent-side operations; default every one. */
export function simulatedOps(requested: readonly string[] | null, operations: readonly string[]): string[] {
  if (requested === null) return [...operations].sort();
  for (const op of requested) if (!operations.includes(op)) usage("--simulate-ops", `--simulate-ops: no agent-side operation named ${quote(op)} in the selected domains (they have ${operations.join(", ")})`, op);
  return [...requested].sort();
}
