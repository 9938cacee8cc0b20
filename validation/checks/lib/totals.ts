import type { InvariantTotal, RowPredicate } from "../../../pipeline/schemas/index.js";
import { describePredicate, holdsAll } from "./predicate.js";

type Row = Record<string, unknown>;

/** A group whose total is outside its bound. */
export interface TotalBreach {
  /** The group's values, `client_id = CL-001`, or `all rows`. */
  group: string;
  total: number;
  bound: number;
}

const cents = (v: number) => Math.round(v * 100) / 100;

function within(total: number, op: InvariantTotal["op"], bound: number): boolean {
  const t = cents(total);
  return op === "<" ? t < bound : op === "<=" ? t <= bound : op === ">" ? t > bound : t >= bound;
}

/** Per group of `group_by` values (keyed by `groupOf`), the total of `column` over the rows matching `where`. */
export function totals(rows: Iterable<Row>, where: readonly RowPredicate[], total: InvariantTotal): Map<string, { values: unknown[]; total: number }> {
  const out = new Map<string, { values: unknown[]; total: number }>();
  for (const row of rows) {
    if (!holdsAll(where, row)) continue;
    const values = total.group_by.map((c) => row[c]);
    const id = groupOf(row, total);
    const v = row[total.column];
    const g = out.get(id) ?? { values, total: 0 };
    g.total += typeof v === "number" ? v : 0;
    out.set(id, g);
  }
  return out;
}

/** The group a row belongs to, as the key `totals` uses. */
export function groupOf(row: Row, total: InvariantTotal): string {
  return JSON.stringify(total.group_by.map((c) => row[c]));
}

/**
 * Every group (by `groupOf` key, in key order) whose total breaks its bound: `value`, or the `limit`
 * column of the row its group's value keys (`boundOf`). A group without a bound (no such row) is not judged.
 */
export function brokenGroups(rows: Iterable<Row>, where: readonly RowPredicate[], total: InvariantTotal, boundOf: (groupValue: unknown) => number | undefined): Map<string, TotalBreach> {
  const out = new Map<string, TotalBreach>();
  const groups = [...totals(rows, where, total).entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [id, g] of groups) {
    const bound = total.limit ? boundOf(g.values[0]) : total.value;
    if (bound === undefined || within(g.total, total.op, bound)) continue;
    const group = total.group_by.length === 0 ? "all rows" : total.group_by.map((c, i) => `${c} = ${String(g.values[i])}`).join(", ");
    out.set(id, { group, total: cents(g.total), bound });
  }
  return out;
}

/** A group broken in `now` that was not broken in `before` (a breach already in the state is not the agent's), or null. */
export function newBreach(before: ReadonlyMap<string, TotalBreach>, now: ReadonlyMap<string, TotalBreach>): [string, TotalBreach] | null {
  for (const [id, b] of now) if (!before.has(id)) return [id, b];
  return null;
}

/** `the total of balance over accounts rows where kind = operating, per client_id, >= 40000` */
export function describeTotal(table: string, where: readonly RowPredicate[], total: InvariantTotal): string {
  const scope = where.length > 0 ? `${table} rows where ${where.map(describePredicate).join(" and ")}` : `${table} rows`;
  const per = total.group_by.length > 0 ? `, per ${total.group_by.join(", ")},` : "";
  const bound = total.limit ? `${total.limit.table}.${total.limit.column}` : String(total.value);
  return `the total of ${total.column} over ${scope}${per} ${total.op} ${bound}`;
}
