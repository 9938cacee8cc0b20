import type { ColumnCondition, ShorthandValue } from "../schemas/world-source.js";

/**
 * The SQL each world.yaml shorthand stands for. One function per shorthand; the texts are the
 * contract documented in sources/README.md ("Shorthands"), and tests/world/shorthands.test.ts
 * holds each expansion to it. Identifiers are written bare (world identifiers are restricted to
 * `[a-z_][a-z0-9_]*`), text literals in single quotes, parameters as `:name`.
 */

/** What a shorthand needs to know about a table. */
export interface ShorthandTable {
  name: string;
  /** Key columns: the primary key, or the columns of a composite key. */
  keys: string[];
  owner?: string;
  ordered?: { parent: string; position: string };
}

/** A parameter-or-literal value as SQL. */
export function valueSql(v: ShorthandValue): string {
  if (v === null) return "NULL";
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return v.startsWith(":") ? v : textLiteral(v);
  if ("sql" in v) return v.sql;
  if ("column" in v) return v.column;
  if ("text" in v) return textLiteral(v.text);
  return keySql(v.key);
}

export function textLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** `RCL-{call:5}` → `printf('RCL-%05d', :call)`; `{call}` without a width is `%d`. */
export function keySql(pattern: string): string {
  const format = pattern.replace(/%/g, "%%").replace(/\{call(?::(\d+))?\}/g, (_m, w: string | undefined) => (w ? `%0${w}d` : "%d"));
  return `printf(${textLiteral(format)}, :call)`;
}

/** `k = :k` for each key column (`param` renames a single key's parameter), joined with AND. */
export function keyWhere(t: ShorthandTable, param?: string, alias?: string): string {
  const a = alias ? `${alias}.` : "";
  return t.keys.map((k) => `${a}${k} = :${t.keys.length === 1 && param ? param : k}`).join(" AND ");
}

/** One column condition: `c = v`, `c IN (…)`, `c != v`, `c NOT IN (…)`, `c IS NULL`, `c IS NOT NULL`. */
export function conditionSql(column: string, cond: ColumnCondition, alias?: string): string {
  const c = alias ? `${alias}.${column}` : column;
  const negated = cond !== null && typeof cond === "object" && !Array.isArray(cond);
  const v = negated ? (cond as { not: ColumnCondition }).not : cond;
  if (v === null) return `${c} IS ${negated ? "NOT " : ""}NULL`;
  if (Array.isArray(v) && v.length > 1) return `${c} ${negated ? "NOT IN" : "IN"} (${v.map((x) => valueSql(x)).join(", ")})`;
  const one = Array.isArray(v) ? (v[0] as ShorthandValue) : (v as ShorthandValue);
  return `${c} ${negated ? "!=" : "="} ${valueSql(one)}`;
}

function conditions(where: Record<string, ColumnCondition> | undefined, alias?: string): string[] {
  return Object.entries(where ?? {}).map(([col, cond]) => conditionSql(col, cond, alias));
}

/** `exists`: SELECT COUNT(*) = 1 FROM t WHERE <key>. */
export function existsSql(t: ShorthandTable, param?: string): string {
  return `SELECT COUNT(*) = 1 FROM ${t.name} WHERE ${keyWhere(t, param)}`;
}

/** `owned`: the row exists and its owner column holds `:customer`. */
export function ownedSql(t: ShorthandTable, owner: string, customer: string, param?: string): string {
  return `SELECT COUNT(*) = 1 FROM ${t.name} WHERE ${keyWhere(t, param)} AND ${owner} = :${customer}`;
}

/** `in_state` (and a transition's precondition): the row meets every condition. */
export function inStateSql(t: ShorthandTable, where: Record<string, ColumnCondition>, param?: string): string {
  return `SELECT COUNT(*) = 1 FROM ${t.name} WHERE ${[keyWhere(t, param), ...conditions(where)].join(" AND ")}`;
}

export const LIMIT_OPERATORS = { above: ">", at_least: ">=", below: "<", at_most: "<=" } as const;
export type LimitComparator = keyof typeof LIMIT_OPERATORS;

/** `limit`: `value <op> bound` on the row (`value` and `bound` already rendered). */
export function limitSql(t: ShorthandTable, value: string, comparator: LimitComparator, bound: string, param?: string): string {
  return `SELECT COUNT(*) = 1 FROM ${t.name} WHERE ${keyWhere(t, param)} AND ${value} ${LIMIT_OPERATORS[comparator]} ${bound}`;
}

/** Table aliases of a join: first letters, the second changed when they clash. */
function aliases(a: string, b: string): [string, string] {
  const x = a[0] as string;
  const y = b[0] as string;
  return [x, y !== x ? y : x === "r" ? "q" : "r"];
}

/** `referenced`: the row's `via` column references a row of `target` meeting `where`, sharing the `same` columns. */
export function referencedSql(t: ShorthandTable, via: string, target: string, targetKey: string, where: Record<string, ColumnCondition>, same: readonly string[], param?: string): string {
  const [s, r] = aliases(t.name, target);
  const conds = [keyWhere(t, param, s), ...same.map((c) => `${r}.${c} = ${s}.${c}`), ...conditions(where, r)];
  return `SELECT COUNT(*) = 1 FROM ${t.name} ${s} JOIN ${target} ${r} ON ${r}.${targetKey} = ${s}.${via} WHERE ${conds.join(" AND ")}`;
}

/** `update` (and a transition's effect): UPDATE t SET c = v, … WHERE <key>. */
export function updateSql(t: ShorthandTable, set: Record<string, ShorthandValue>, param?: string): string {
  const sets = Object.entries(set).map(([c, v]) => `${c} = ${valueSql(v)}`);
  return `UPDATE ${t.name} SET ${sets.join(", ")} WHERE ${keyWhere(t, param)}`;
}

/**
 * `insert`: INSERT INTO t (c, …) VALUES (v, …), or `… SELECT v, … FROM f WHERE <key of f>` with
 * `from`. Into an ordered table the position column, when not given, is the next one of the parent.
 */
export function insertSql(t: ShorthandTable, values: Record<string, ShorthandValue>, from?: { table: ShorthandTable; param?: string }): string {
  const cols = Object.keys(values);
  const vals = Object.values(values).map(valueSql);
  if (t.ordered && !(t.ordered.position in values) && t.ordered.parent in values) {
    const parent = valueSql(values[t.ordered.parent] as ShorthandValue);
    cols.push(t.ordered.position);
    vals.push(`(SELECT COALESCE(MAX(${t.ordered.position}), 0) + 1 FROM ${t.name} WHERE ${t.ordered.parent} = ${parent})`);
  }
  const head = `INSERT INTO ${t.name} (${cols.join(", ")})`;
  if (!from) return `${head} VALUES (${vals.join(", ")})`;
  return `${head} SELECT ${vals.join(", ")} FROM ${from.table.name} WHERE ${keyWhere(from.table, from.param)}`;
}

/** The result shorthand: SELECT columns FROM t WHERE <key> | <by> = :param | (all) ORDER BY …. */
export function resultSql(t: ShorthandTable, columns: readonly string[], opts: { param?: string; by?: string; all?: boolean; orderBy?: readonly string[] }): string {
  let sql = `SELECT ${columns.join(", ")} FROM ${t.name}`;
  if (opts.by !== undefined) sql += ` WHERE ${opts.by} = :${opts.param ?? opts.by}`;
  else if (!opts.all) sql += ` WHERE ${keyWhere(t, opts.param)}`;
  const order = opts.orderBy ?? (t.ordered && (opts.by !== undefined || opts.all) ? [t.ordered.parent, t.ordered.position] : []);
  if (order.length > 0) sql += ` ORDER BY ${order.join(", ")}`;
  return sql;
}
