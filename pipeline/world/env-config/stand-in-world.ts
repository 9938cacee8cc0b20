import type { EnvConfig, WorldModel } from "../../schemas/index.js";
import { buildBaseState, type InitialState } from "../build-state.js";

const cache = new WeakMap<EnvConfig, { world: WorldModel; base: InitialState }>();

/**
 * The world a simulated-only task's episode is recorded on. Such a domain has no world.yaml: its
 * state lives in the environment configuration, and the simulator answers every business call
 * (operations, the query tool, wait). The runtime still records the episode — messages, the
 * reference tools over the documents, the logical clock — so it is given this stand-in: one
 * table that says where the state is, and the configuration's operations by name, with no
 * parameters, preconditions or effects, which never run (the simulator's layer answers them
 * first). Built once per configuration.
 */
export function standInWorld(config: EnvConfig): { world: WorldModel; base: InitialState } {
  const hit = cache.get(config);
  if (hit) return hit;
  const ops = config.tools.filter((t) => t.kind === "operation");
  const world = {
    domain: config.domain,
    customer_table: "simulated_state",
    tables: [
      {
        name: "simulated_state",
        description: "Stand-in: the state of a simulated-only task is the environment configuration's, held by the simulator.",
        primary_key: "id",
        columns: [{ name: "id", type: "text", nullable: false, hidden: false, description: "Stand-in key." }],
        rows: [],
      },
    ],
    operations: ops.map((t) => ({ name: t.name, description: t.description || t.name, side: "agent", access: t.access ?? "write", params: {}, preconditions: [], effects: [], result: null, rules: [] })),
    events: [],
    rules: [],
  } as unknown as WorldModel;
  const out = { world, base: buildBaseState(world, { seed: 0 }) };
  cache.set(config, out);
  return out;
}
