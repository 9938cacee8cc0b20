import { resolveConfig, type FoundryConfig } from "../../core/config.js";

/**
 * The demo's configuration: the resolved one (cache folder, retries…) with every role deterministic
 * and each domain card's seed, whatever FOUNDRY_MODEL, FOUNDRY_MODEL_<ROLE>, FOUNDRY_SEED or the
 * config file say: the demo promises no model and compares its release with the committed one.
 */
export function demoConfig(opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): FoundryConfig {
  return { ...resolveConfig(opts), model: "deterministic", models: {}, seed: null };
}
