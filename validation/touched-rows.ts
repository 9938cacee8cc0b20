import type { TraceEvent, WorldModel } from "../pipeline/schemas/index.js";
import type { CheckContext } from "../pipeline/world/types.js";
import { changedState } from "./checks/index.js";

/** A row of the state, by table and primary key. */
export interface RowRef {
  table: string;
  key: string | number;
}

const CALLS: ReadonlySet<string> = new Set(["tool_call", "proposal", "approval", "customer_action"]);

/**
 * Rows one event touches: the rows it changed, and rows of s0 whose primary key it passes as an
 * argument (a read or a rejected write still points at its subject).
 */
export function rowsOfEvent(world: WorldModel, s0: CheckContext, e: TraceEvent): RowRef[] {
  const out: RowRef[] = [];
  if (changedState(e)) for (const c of e.changes) if (!c.table.startsWith("_")) out.push({ table: c.table, key: c.key });
  if (!CALLS.has(e.kind)) return out;
  for (const v of Object.values(e.args)) {
    if (typeof v !== "string" && typeof v !== "number") continue;
    for (const t of world.tables) if (s0.initialRow(t.name, v) !== null) out.push({ table: t.name, key: v });
  }
  return out;
}

/** Rows a list of events touches, each once, in first-touch order. */
export function touchedRows(world: WorldModel, s0: CheckContext, events: readonly TraceEvent[]): RowRef[] {
  const seen = new Map<string, RowRef>();
  for (const e of events) for (const r of rowsOfEvent(world, s0, e)) seen.set(`${r.table}\u0000${String(r.key)}`, seen.get(`${r.table}\u0000${String(r.key)}`) ?? r);
  return [...seen.values()];
}
