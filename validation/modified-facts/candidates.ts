import type { Column, Table, Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { createCheckContext } from "../../pipeline/world/check-context.js";
import { changedState } from "../checks/index.js";
import { initialStateFor } from "../initial-states.js";
import { touchedRows } from "../touched-rows.js";

/** One modified fact: a column of a subject row set to a value on the other side of a threshold. */
export interface FactChange {
  table: string;
  key: string | number;
  column: string;
  from: unknown;
  to: string | number;
  /** Where the threshold came from. */
  why: string;
}

/** Upper bound of candidates tried per task (each is one re-run of the golden actions). */
export const MAX_FACT_CHANGES = 40;
const PER_COLUMN = 6;

const NUMBER = /(?<![\w.:])-?\d+(?:\.\d+)?(?![\w.])/g;

/** The declared values of a text column whose description lists them as `a | b (note) | c`. */
function declaredValues(c: Column): string[] {
  if (!c.description.includes("|")) return [];
  return c.description
    .split("|")
    .map((s) => /^\s*([a-z][a-z0-9_]*)\b/.exec(s)?.[1])
    .filter((s): s is string => s !== undefined);
}

/** String literals the world's SQL compares or sets `column` with (`status = 'released'`). */
function literalsOf(sqls: readonly string[], column: string): string[] {
  const re = new RegExp(`\\b${column}\\s*(?:=|!=|<>)\\s*'([^']*)'`, "g");
  return [...new Set(sqls.flatMap((s) => [...s.matchAll(re)].map((m) => m[1] as string)))];
}

const mentions = (sql: string, column: string) => new RegExp(`\\b${column}\\b`).test(sql);

/**
 * Candidate modified facts of a task, derived from what decides validity where it is simple:
 * numbers in the preconditions of the operations the golden trace executed (a value just past each
 * literal, or another numeric column the condition compares with), the values a text column can
 * take, and invariant rules (the bound moved just past the value the golden trace leaves).
 * Only rows the golden trace touches are changed.
 */
export function factChanges(ctx: DomainContext, task: Task, golden: Trace): FactChange[] {
  const world = ctx.world;
  const executed = new Set(golden.events.filter((e) => e.actor === "agent" && changedState(e)).map((e) => e.name));
  const ops = world.operations.filter((o) => executed.has(o.name) && o.access === "write");
  const preSql = ops.flatMap((o) => o.preconditions.map((p) => p.sql));
  const allSql = world.operations.flatMap((o) => [...o.preconditions.map((p) => p.sql), ...o.effects.map((e) => e.sql)]);
  const literals = [...new Set(preSql.flatMap((s) => [...s.replace(/'[^']*'/g, "''").matchAll(NUMBER)].map((m) => Number(m[0]))))];
  const s0 = createCheckContext(world, task, initialStateFor(ctx, task));
  const out: FactChange[] = [];
  const add = (c: FactChange) => {
    if (c.to === c.from || out.some((x) => x.table === c.table && String(x.key) === String(c.key) && x.column === c.column && x.to === c.to)) return;
    out.push(c);
  };
  try {
    for (const ref of touchedRows(world, s0, golden.events)) {
      const table = world.tables.find((t) => t.name === ref.table) as Table;
      const row = s0.initialRow(ref.table, ref.key);
      if (!row) continue;
      for (const col of table.columns) {
        if (col.name === table.primary_key || col.name === table.owner_column || !preSql.some((s) => mentions(s, col.name))) continue;
        const from = row[col.name];
        const before = out.length;
        if ((col.type === "real" || col.type === "integer") && typeof from === "number") {
          // Literals nearest the current value first: those are the thresholds that plausibly decide this row.
          const near = [...literals].sort((a, b) => Math.abs(a - from) - Math.abs(b - from) || a - b);
          for (const n of near) for (const v of [n + 1, n - 1]) add({ table: table.name, key: ref.key, column: col.name, from, to: v, why: `literal ${n} in a precondition` });
          for (const other of table.columns) {
            const v = row[other.name];
            if (other.name !== col.name && typeof v === "number" && preSql.some((s) => mentions(s, col.name) && mentions(s, other.name))) add({ table: table.name, key: ref.key, column: col.name, from, to: v, why: `compared with ${other.name} in a precondition` });
          }
        } else if (col.type === "text" && typeof from === "string") {
          for (const v of [...new Set([...declaredValues(col), ...literalsOf(allSql, col.name)])]) add({ table: table.name, key: ref.key, column: col.name, from, to: v, why: `another value of ${col.name}` });
        }
        out.splice(before + PER_COLUMN);
      }
    }
    for (const rule of world.rules) {
      const inv = rule.invariant;
      if (!inv) continue;
      const table = world.tables.find((t) => t.name === inv.table);
      if (!table) continue;
      for (const ch of golden.events.filter(changedState).flatMap((e) => e.changes.filter((c) => c.table === inv.table && c.after !== null))) {
        for (const p of inv.require) {
          const v = ch.after?.[p.column];
          const s = s0.initialRow(table.name, ch.key);
          if (p.other_column === undefined || typeof v !== "number" || !s || (p.op !== ">=" && p.op !== ">")) continue;
          // Raise the bound just above what the golden trace leaves: s0 still satisfies it, the golden's change does not.
          const to = Math.floor(v) + 1;
          if (typeof s[p.column] === "number" && (s[p.column] as number) >= to) add({ table: table.name, key: ch.key, column: p.other_column, from: s[p.other_column], to, why: `invariant ${rule.id} bound moved above the value the golden trace leaves` });
        }
      }
    }
  } finally {
    s0.close();
  }
  return out.slice(0, MAX_FACT_CHANGES);
}
