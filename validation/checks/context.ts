import type { Task, Trace, TraceEvent, WorldModel } from "../../pipeline/schemas/index.js";
import type { CheckContext } from "../../pipeline/world/types.js";
import { FoundryError, quote } from "../../pipeline/core/errors.js";
import { changedState } from "./lib/events.js";

export type Row = Record<string, unknown>;

/** Rows of the initial state (s0, after the task overlay), by table name. */
export type InitialRows = Readonly<Record<string, ReadonlyArray<Row>>>;

/**
 * A CheckContext over a plain snapshot of s0. Rows are indexed by their table's primary key;
 * keys compare as text (a key read as 7 from YAML and stored as "7" is the same row).
 * Throws FoundryError for a table the world does not declare or a row without its key.
 */
export function buildCheckContext(world: WorldModel, task: Task, rows: InitialRows): CheckContext {
  const index = new Map<string, Map<string, Row>>();
  const keys = new Map<string, Array<string | number>>();
  for (const [table, list] of Object.entries(rows)) {
    const def = world.tables.find((t) => t.name === table);
    if (!def) throw new FoundryError("CHECK_CONTEXT_UNKNOWN_TABLE", `initial rows given for table ${quote(table)}, which the world model does not declare`, { path: table }, table);
    const byKey = new Map<string, Row>();
    const keyList: Array<string | number> = [];
    list.forEach((row, i) => {
      const key = row[def.primary_key];
      if (typeof key !== "string" && typeof key !== "number") {
        throw new FoundryError("CHECK_CONTEXT_ROW_WITHOUT_KEY", `row ${i} of ${table} has no primary key ${def.primary_key}`, { path: `${table}[${i}].${def.primary_key}` }, key);
      }
      byKey.set(String(key), { ...row });
      keyList.push(key);
    });
    index.set(table, byKey);
    keys.set(table, keyList);
  }
  return {
    world,
    task,
    initialRow: (table, key) => {
      const row = index.get(table)?.get(String(key));
      return row ? { ...row } : null;
    },
    initialKeys: (table) => [...(keys.get(table) ?? [])],
  };
}

/** One row transition caused by one state-changing event, with full rows before and after. */
export interface RowTransition {
  event: TraceEvent;
  table: string;
  key: string | number;
  before: Row | null;
  after: Row | null;
}

/**
 * Folds the trace's row changes onto s0 and returns every transition, in order. Only executed and
 * implicitly faulted events count. A change's `after` is merged onto the row known so far, so a
 * runtime that records only the changed columns still yields full rows.
 */
export function stateTransitions(trace: Trace, ctx: CheckContext): RowTransition[] {
  const current = new Map<string, Row | null>();
  const out: RowTransition[] = [];
  for (const event of trace.events) {
    if (!changedState(event)) continue;
    for (const change of event.changes) {
      const id = `${change.table}\u0000${String(change.key)}`;
      const known = current.has(id) ? (current.get(id) ?? null) : ctx.initialRow(change.table, change.key);
      const base = known ?? change.before;
      const after = change.after === null ? null : { ...(base ?? {}), ...change.after };
      out.push({ event, table: change.table, key: change.key, before: base ? { ...base } : null, after });
      current.set(id, after);
    }
  }
  return out;
}

/** The row `table[key]` after event `afterEventIndex` (0 = the initial state); null if absent. */
export function rowAt(trace: Trace, ctx: CheckContext, table: string, key: string | number, afterEventIndex: number): Row | null {
  let row = ctx.initialRow(table, key);
  for (const t of stateTransitions(trace, ctx)) {
    if (t.event.index > afterEventIndex) break;
    if (t.table === table && String(t.key) === String(key)) row = t.after;
  }
  return row;
}

/** The row `table[key]` in the final state s_T; null if absent. */
export function finalRow(trace: Trace, ctx: CheckContext, table: string, key: string | number): Row | null {
  return rowAt(trace, ctx, table, key, Number.POSITIVE_INFINITY);
}

/** Transitions of one row, in order (empty when no state-changing event touched it). */
export function rowTransitions(trace: Trace, ctx: CheckContext, table: string, key: string | number): RowTransition[] {
  return stateTransitions(trace, ctx).filter((t) => t.table === table && String(t.key) === String(key));
}

/** `payments[PAY-1]`: how every reason names a row. */
export function rowRef(table: string, key: string | number): string {
  return `${table}[${String(key)}]`;
}
