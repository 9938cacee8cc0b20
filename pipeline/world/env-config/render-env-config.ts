import type { Sop, Task } from "../../schemas/index.js";
import { EnvConfig } from "../../schemas/env-config.js";
import type { CompiledWorld } from "../compile-world.js";
import type { InitialState } from "../build-state.js";
import { relevantRows, ROW_RULE } from "./relevant-rows.js";
import { envTools } from "./tool-entries.js";
import { describeState } from "./state-description.js";
import { renderSystemPrompt } from "./system-prompt.js";
import { hiddenLeaks } from "./hidden-values.js";

export interface EnvConfigInput {
  world: CompiledWorld;
  /** The task's initial state (the domain's base with the task's overlay applied). */
  state: InitialState;
  task: Task;
  sop: Sop | null;
  domainTitle: string;
}

/**
 * The deterministic environment configuration of one task (the environment builder's rendering
 * from the world model): the build's collect stage writes it, the release ships it, the simulated
 * and hybrid evaluation modes read it. Reads only golden-free parts of the task (its customer,
 * overlay, scenario and business date) — never its checks, golden trace or reference plan.
 */
export function renderEnvConfig(input: EnvConfigInput): EnvConfig {
  const { world, state, task } = input;
  const config: EnvConfig = {
    domain: task.domain,
    task: task.id,
    strategy: "deterministic",
    as_of: task.as_of,
    system_prompt: renderSystemPrompt(world, input.sop, { domainTitle: input.domainTitle, asOf: task.as_of }),
    tools: envTools(world, state),
    initial_state: relevantRows(world, state, task),
    row_rule: ROW_RULE,
    state_description: describeState(world),
  };
  const parsed = EnvConfig.parse(config);
  const leaks = hiddenLeaks(parsed, world, state);
  if (leaks.length > 0) throw new Error(`env-config of ${task.id} would reveal hidden values: ${leaks.map((l) => `${l.table}.${l.column}=${JSON.stringify(l.value)}`).join(", ")}`);
  return parsed;
}
