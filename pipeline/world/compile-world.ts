import type { z } from "zod";
import type { Operation, ScheduledEvent, Table, WorldModel } from "../schemas/index.js";
import { argsSchema } from "./args.js";
import { stateTables, type StateTable } from "./schema-sql.js";
import { validateWorld } from "./load-world.js";
import { ProblemList, WorldInvalidError, formatPath } from "./world-problems.js";
import { checkEvents } from "./check-world-structure.js";
import { checkEventSql, openSchemaDatabase } from "./check-world-sql.js";

/**
 * What the runtime derives from a world model once, not per episode: the validated model, argument
 * schemas, the kind of trace event each operation produces, the set of hidden columns. Cached per
 * world object, so opening thousands of episodes never re-validates the world.
 */

export type CallKind = "tool_call" | "proposal" | "approval" | "customer_action";

export interface CompiledOperation {
  op: Operation;
  args: z.ZodType<Record<string, unknown>>;
  /** Parameter names in declaration order; every one is bound (null when left out). */
  paramNames: string[];
  kind: CallKind;
  /** Parameters of type integer (bound as SQLite INTEGER, not REAL). */
  integerParams: Set<string>;
  /** Runs in a transaction (effects or approval bookkeeping); read operations do not. */
  writes: boolean;
}

export interface CompiledWorld {
  world: WorldModel;
  operations: Map<string, CompiledOperation>;
  tables: Map<string, Table>;
  stateTables: StateTable[];
  /** Proposal kinds a customer-side operation approves: only the customer may approve them. */
  customerKinds: Set<string>;
  /** Lower-cased names of hidden columns (the query tool refuses statements naming them). */
  hiddenColumns: Set<string>;
}

const cache = new WeakMap<WorldModel, CompiledWorld>();
const eventCache = new WeakMap<CompiledWorld, WeakMap<readonly ScheduledEvent[], ScheduledEvent[]>>();

function kindOf(op: Operation): CallKind {
  if (op.proposes) return "proposal";
  if (op.approves !== undefined) return "approval";
  return op.side === "customer" ? "customer_action" : "tool_call";
}

/** Validate (once) and compile a world model; throws WorldInvalidError when it has problems. */
export function compileWorld(world: WorldModel, fileLabel = "world.yaml"): CompiledWorld {
  const hit = cache.get(world);
  if (hit) return hit;
  const checked = validateWorld(world, fileLabel);
  if (!checked.world) throw new WorldInvalidError(fileLabel, checked.problems);
  // The runtime uses zod's parsed copy (it carries the schema defaults); both objects key the cache.
  const model = checked.world;
  const operations = new Map<string, CompiledOperation>();
  const customerKinds = new Set<string>();
  for (const op of model.operations) {
    if (op.approves !== undefined && op.side === "customer") customerKinds.add(op.approves);
    operations.set(op.name, {
      op,
      args: argsSchema(op.params),
      paramNames: Object.keys(op.params),
      kind: kindOf(op),
      integerParams: new Set(Object.entries(op.params).filter(([, p]) => p.type === "integer").map(([k]) => k)),
      writes: op.effects.length > 0 || op.proposes !== undefined || op.approves !== undefined || op.requires_approval !== undefined,
    });
  }
  const hiddenColumns = new Set<string>();
  for (const t of model.tables) for (const c of t.columns) if (c.hidden) hiddenColumns.add(c.name.toLowerCase());
  const compiled: CompiledWorld = {
    world: model,
    operations,
    tables: new Map(model.tables.map((t) => [t.name, t])),
    stateTables: stateTables(model),
    customerKinds,
    hiddenColumns,
  };
  cache.set(world, compiled);
  cache.set(model, compiled);
  return compiled;
}

/**
 * The world's scheduled events plus a task's, checked together (unknown operations or events,
 * cycles, SQL that does not prepare). Cached per task event list.
 */
export function episodeEvents(compiled: CompiledWorld, taskEvents: readonly ScheduledEvent[] = [], fileLabel = "task"): ScheduledEvent[] {
  if (taskEvents.length === 0) return compiled.world.events;
  let perWorld = eventCache.get(compiled);
  if (!perWorld) eventCache.set(compiled, (perWorld = new WeakMap()));
  const hit = perWorld.get(taskEvents);
  if (hit) return hit;
  const out = new ProblemList();
  checkEvents(taskEvents, ["scheduled_events"], new Set(compiled.operations.keys()), new Set(compiled.world.events), null, out);
  const db = openSchemaDatabase(compiled.world);
  try {
    checkEventSql(db, taskEvents, ["scheduled_events"], out);
  } finally {
    db.close();
  }
  if (out.items.length > 0) {
    throw new WorldInvalidError(
      fileLabel,
      out.items.map((p) => ({ code: p.code, message: p.message, file: fileLabel, path: formatPath(p.path), ...(p.value !== undefined ? { value: p.value } : {}) })),
    );
  }
  const all = [...compiled.world.events, ...taskEvents];
  perWorld.set(taskEvents, all);
  return all;
}
