import Database from "better-sqlite3";
import type { Task } from "../../schemas/index.js";
import type { EnvTableRows } from "../../schemas/env-config.js";
import type { CompiledWorld } from "../compile-world.js";
import type { InitialState } from "../build-state.js";
import { agentViewBuffer } from "../agent-view.js";
import { ident } from "../schema-sql.js";

/** At most this many rows of one table are listed; the rest are counted in `omitted`. */
export const ROWS_PER_TABLE = 50;

/** The rule `relevantRows` applies, stated in the configuration it is part of. */
export const ROW_RULE =
  `Rows of the task's initial state as the agent view shows them (hidden columns left out), chosen without the golden trace, the checks or the reference plan: ` +
  `(1) the task customer's row and every row whose owner column is that customer; (2) every row the task's overlay writes; ` +
  `(3) every row whose primary key the customer's opening request names or a private fact or agreed term carries as its value; ` +
  `then (4) one hop along declared foreign keys from those rows, both ways. At most ${ROWS_PER_TABLE} rows per table, in primary-key order.`;

type Row = Record<string, string | number | boolean | null>;

/** Words and values the scenario points at: the opening request's tokens, the private facts' values, the agreed terms. */
function scenarioValues(task: Pick<Task, "scenario">): Set<string> {
  const out = new Set<string>();
  for (const w of task.scenario.opening_request.split(/[^A-Za-z0-9_.-]+/)) if (w.length >= 2) out.add(w.replace(/\.$/, ""));
  const add = (v: unknown) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) v.forEach(add);
    else out.add(String(v));
  };
  for (const f of task.scenario.private_facts) add(f.value);
  for (const a of task.scenario.approves) Object.values(a.terms).forEach(add);
  for (const r of task.scenario.renewals) add(r.value);
  return out;
}

/**
 * The task's relevant initial rows, read from the agent view of its initial state (so a hidden
 * column can never appear), by ROW_RULE. Deterministic: the same state and task give the same rows.
 */
export function relevantRows(world: CompiledWorld, state: InitialState, task: Pick<Task, "customer_id" | "initial_state" | "scenario">): EnvTableRows[] {
  const db = new Database(agentViewBuffer(state.buffer, world));
  try {
    const tables = world.world.tables.map((t) => ({ t, columns: t.columns.filter((c) => !c.hidden).map((c) => c.name) })).filter((x) => x.columns.length > 0);
    const all = new Map<string, Row[]>();
    for (const { t, columns } of tables) {
      const keyed = columns.includes(t.primary_key);
      const order = keyed ? ` ORDER BY ${ident(t.primary_key)}` : "";
      all.set(t.name, db.prepare(`SELECT ${columns.map(ident).join(", ")} FROM ${ident(t.name)}${order}`).all() as Row[]);
    }
    const chosen = new Map<string, Set<number>>(tables.map(({ t }) => [t.name, new Set<number>()]));
    const pick = (table: string, test: (r: Row) => boolean) => (all.get(table) ?? []).forEach((r, i) => test(r) && chosen.get(table)?.add(i));
    const values = scenarioValues(task);
    const overlay = new Map<string, Set<string>>();
    for (const c of task.initial_state) {
      const t = world.tables.get(c.table);
      if (!t) continue;
      const set = overlay.get(c.table) ?? new Set<string>();
      set.add(String(c.row[t.primary_key]));
      overlay.set(c.table, set);
    }
    for (const { t, columns } of tables) {
      const pk = columns.includes(t.primary_key) ? t.primary_key : null;
      pick(t.name, (r) => {
        const key = pk === null ? null : String(r[pk]);
        if (t.name === world.world.customer_table && key === task.customer_id) return true;
        if (t.owner_column && columns.includes(t.owner_column) && String(r[t.owner_column]) === task.customer_id) return true;
        return key !== null && (overlay.get(t.name)?.has(key) === true || values.has(key));
      });
    }
    // One hop along declared foreign keys, both ways, from the rows chosen so far.
    const seed = new Map([...chosen].map(([k, v]) => [k, new Set(v)]));
    for (const { t, columns } of tables) {
      for (const c of t.columns) {
        if (!c.references || c.hidden) continue;
        const [target, targetCol] = c.references.split(".") as [string, string];
        const targetRows = all.get(target);
        if (!targetRows || !columns.includes(c.name)) continue;
        const fromHere = new Set([...(seed.get(t.name) ?? [])].map((i) => String(all.get(t.name)![i]![c.name])));
        pick(target, (r) => fromHere.has(String(r[targetCol])));
        const fromThere = new Set([...(seed.get(target) ?? [])].map((i) => String(targetRows[i]![targetCol])));
        pick(t.name, (r) => fromThere.has(String(r[c.name])));
      }
    }
    return tables.map(({ t, columns }) => {
      const rows = all.get(t.name) ?? [];
      const idx = [...(chosen.get(t.name) ?? [])].sort((a, b) => a - b).slice(0, ROWS_PER_TABLE);
      return { table: t.name, columns, rows: idx.map((i) => rows[i]!), omitted: rows.length - idx.length };
    });
  } finally {
    db.close();
  }
}
