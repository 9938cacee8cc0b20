import { sha256, stableJson } from "../../core/canonical-json.js";
import type { EnvConfig, EnvConfigFile, EnvConfigShared } from "../../schemas/env-config.js";

/** An environment configuration as stored: the task's file, and the shared part with the bytes and name it is filed under. */
export interface EnvConfigParts {
  file: EnvConfigFile;
  shared: EnvConfigShared;
  /** The shared part's stable JSON, the bytes of its file. */
  sharedBytes: string;
  /** sha256 of sharedBytes: the shared file's name, and `file.shared`. */
  sharedHash: string;
}

/**
 * Split a configuration into what is stored per task and what tasks share (system prompt, tools,
 * state description). The shared part is filed under the sha256 of its stable JSON, so the same
 * content always has the same name and a release stores it once.
 */
export function splitEnvConfig(config: EnvConfig): EnvConfigParts {
  const shared: EnvConfigShared = { system_prompt: config.system_prompt, tools: config.tools, state_description: config.state_description };
  const sharedBytes = stableJson(shared);
  const sharedHash = sha256(sharedBytes);
  const file: EnvConfigFile = { domain: config.domain, task: config.task, strategy: config.strategy, as_of: config.as_of, shared: sharedHash, initial_state: config.initial_state, row_rule: config.row_rule };
  return { file, shared, sharedBytes, sharedHash };
}

/** The configuration a task's file and its shared part make together. */
export function joinEnvConfig(file: EnvConfigFile, shared: EnvConfigShared): EnvConfig {
  return {
    domain: file.domain,
    task: file.task,
    strategy: file.strategy,
    as_of: file.as_of,
    system_prompt: shared.system_prompt,
    tools: shared.tools,
    initial_state: file.initial_state,
    row_rule: file.row_rule,
    state_description: shared.state_description,
  };
}
