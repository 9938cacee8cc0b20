import type { Operation, Param, WorldModel } from "../../pipeline/schemas/index.js";
import { indexWorld, type WorldIndex } from "../../pipeline/sop/world-index.js";

/**
 * What an agent can see of a world: the tool specs (operation names, descriptions, parameters with
 * their type, pattern and `source`, and the approval bindings describe_capability shows), the table
 * and column names the query tool lists (hidden columns left out), and which table holds the
 * customers. Never preconditions, effects, result SQL, rows, events or formal rules.
 */
export interface VisibleOperation {
  name: string;
  description: string;
  side: Operation["side"];
  access: Operation["access"];
  params: Record<string, Param>;
  proposes?: { kind: string; terms: string[] };
  requires_approval?: { kind: string; terms: string[] };
}

export interface AgentView {
  operations: ReadonlyMap<string, VisibleOperation>;
  customerTable: string;
  /** Primary key of the customer table (the customer's number). */
  customerKey: string;
  /** The world index the SOP extractor needs, built from the visible parts only. */
  index: WorldIndex;
}

const cache = new WeakMap<WorldModel, AgentView>();

/** The agent's view of a world (cached per world). */
export function agentView(world: WorldModel): AgentView {
  const hit = cache.get(world);
  if (hit) return hit;
  const ops = world.operations.map((o): VisibleOperation => ({
    name: o.name,
    description: o.description,
    side: o.side,
    access: o.access,
    params: o.params,
    ...(o.proposes ? { proposes: o.proposes } : {}),
    ...(o.requires_approval ? { requires_approval: o.requires_approval } : {}),
  }));
  const visible: WorldModel = {
    domain: world.domain,
    customer_table: world.customer_table,
    tables: world.tables.map((t) => ({ name: t.name, description: t.description, primary_key: t.primary_key, ...(t.owner_column ? { owner_column: t.owner_column } : {}), columns: t.columns.filter((c) => !c.hidden), rows: [] })),
    operations: ops.map((o) => ({ ...o, preconditions: [], effects: [], result: null, rules: [] })),
    events: [],
    rules: [],
  };
  const customers = world.tables.find((t) => t.name === world.customer_table);
  const view: AgentView = { operations: new Map(ops.map((o) => [o.name, o])), customerTable: world.customer_table, customerKey: customers?.primary_key ?? "", index: indexWorld(visible) };
  cache.set(world, view);
  return view;
}
