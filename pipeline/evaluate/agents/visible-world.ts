import type { WorldModel } from "../../schemas/index.js";

const cache = new WeakMap<WorldModel, WorldModel>();

/**
 * The world as an agent may see it: table and column names and descriptions without hidden
 * columns, no rows or generators, operations with their specs (name, description, side, access,
 * parameters, approval bindings) but no preconditions, effects, result SQL or rules, no events.
 * The only world an agent factory is given (cached per world).
 */
export function visibleWorld(world: WorldModel): WorldModel {
  const hit = cache.get(world);
  if (hit) return hit;
  const visible: WorldModel = {
    domain: world.domain,
    customer_table: world.customer_table,
    tables: world.tables.map((t) => ({ name: t.name, description: t.description, primary_key: t.primary_key, ...(t.owner_column ? { owner_column: t.owner_column } : {}), columns: t.columns.filter((c) => !c.hidden), rows: [] })),
    operations: world.operations.map((o) => ({
      name: o.name,
      description: o.description,
      side: o.side,
      access: o.access,
      params: o.params,
      ...(o.proposes ? { proposes: o.proposes } : {}),
      ...(o.requires_approval ? { requires_approval: o.requires_approval } : {}),
      ...(o.approves !== undefined ? { approves: o.approves } : {}),
      preconditions: [],
      effects: [],
      result: null,
      rules: [],
    })),
    events: [],
    rules: [],
  } as WorldModel;
  cache.set(world, visible);
  return visible;
}
