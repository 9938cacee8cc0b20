import { FoundryError, quote } from "../../core/errors.js";
import type { LlmRuntime } from "../../llm/llm-runtime.js";
import { parseModelSpec } from "../../llm/model-registry.js";
import type { AgentFactory } from "./types.js";
import { noopAgent } from "./noop.js";
import { oracleAgent } from "./oracle.js";
import { replayAgent } from "./replay.js";
import { probeAgent, PROBE_STYLES } from "./probe.js";
import { modelAgent } from "./model.js";

const EXPECTED = "oracle, noop, replay:FILE, probe:NAME or provider:model";

/** The kind of agent a spec names, without building it (the model kind needs a runtime). */
export function agentKind(spec: string): "oracle" | "noop" | "replay" | "probe" | "model" {
  if (spec === "oracle" || spec === "noop") return spec;
  if (spec.startsWith("replay:")) return "replay";
  if (spec.startsWith("probe:")) return "probe";
  if (spec === "deterministic") throw new FoundryError("USAGE", `--agent expects ${EXPECTED}; "deterministic" is a customer strategy, not an agent`, { path: "--agent" }, spec);
  try {
    if (parseModelSpec(spec)) return "model";
  } catch {
    // Falls through to the usage error naming every form.
  }
  throw new FoundryError("USAGE", `--agent expects ${EXPECTED}, got ${quote(spec)}`, { path: "--agent" }, spec);
}

/**
 * The agent a spec names. Every kind is one file; a bad spec is a usage error quoting it.
 * `runtime` is asked for only when the spec names a model.
 */
export function agentFactory(spec: string, runtime: () => LlmRuntime): AgentFactory {
  switch (agentKind(spec)) {
    case "oracle":
      return oracleAgent;
    case "noop":
      return noopAgent;
    case "replay": {
      const file = spec.slice("replay:".length);
      if (file === "") throw new FoundryError("USAGE", `--agent replay:FILE needs a file, got ${quote(spec)}`, { path: "--agent" }, spec);
      return replayAgent(spec, file);
    }
    case "probe": {
      const name = spec.slice("probe:".length);
      const style = PROBE_STYLES.get(name);
      if (!style) throw new FoundryError("USAGE", `--agent probe:NAME expects NAME one of ${[...PROBE_STYLES.keys()].join(", ")}, got ${quote(name)}`, { path: "--agent" }, spec);
      return probeAgent(spec, style);
    }
    case "model":
      return modelAgent(spec, runtime());
  }
}

/** A folder name for an agent spec: lower case, `[a-z0-9._-]`, other characters as `-`. */
export function agentSlug(spec: string): string {
  return spec.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "agent";
}
