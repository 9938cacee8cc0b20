import type { EffectSource, OperationSource, PreconditionSource, ResultSource, TableSource, WorldSource } from "../schemas/world-source.js";
import type { PathSegment, WorldProblem } from "./world-problems.js";
import { existsSql, inStateSql, insertSql, limitSql, ownedSql, referencedSql, resultSql, updateSql, LIMIT_OPERATORS, type LimitComparator, type ShorthandTable } from "./shorthand-sql.js";

/**
 * world.yaml as written (WorldSource) → the world model the runtime runs (WorldModel input): every
 * shorthand becomes the SQL shorthand-sql.ts writes, a composite key becomes `key_columns` plus the
 * runtime's row-key column, fixed child rows of an ordered table get their positions. A world
 * without shorthands comes out as it went in. `sourcePath` maps a path of the result back to where
 * it was written, so a problem found later (SQL that does not prepare, an unknown rule) points at
 * the shorthand's line.
 */

export interface Expansion {
  model: Record<string, unknown>;
  problems: WorldProblem[];
  sourcePath(path: readonly PathSegment[]): PathSegment[];
}

/** Name of the column the runtime keeps for a composite key. */
export const ROW_KEY_COLUMN = "row_key";

const PRECONDITION_KINDS = ["sql", "exists", "owned", "in_state", "limit", "referenced"] as const;
/** Fields each precondition kind takes besides id, message and rule. */
const PRECONDITION_FIELDS: Record<(typeof PRECONDITION_KINDS)[number], readonly string[]> = {
  sql: [],
  exists: ["param"],
  owned: ["param", "customer"],
  in_state: ["param", "where"],
  limit: ["param", "value", "above", "at_least", "below", "at_most"],
  referenced: ["param", "via", "where", "same"],
};
const EFFECT_KINDS = ["sql", "update", "insert"] as const;
const EFFECT_FIELDS: Record<(typeof EFFECT_KINDS)[number], readonly string[]> = { sql: [], update: ["set", "param"], insert: ["values", "from", "param"] };

class Expander {
  readonly problems: WorldProblem[] = [];
  readonly tables = new Map<string, ShorthandTable>();
  readonly sourceTables = new Map<string, TableSource>();

  constructor(readonly src: WorldSource) {
    for (const t of src.tables) {
      this.sourceTables.set(t.name, t);
      const keys = Array.isArray(t.primary_key) ? t.primary_key : (t.key_columns ?? [t.primary_key]);
      this.tables.set(t.name, { name: t.name, keys, ...(t.owner_column ? { owner: t.owner_column } : {}), ...(t.ordered ? { ordered: t.ordered } : {}) });
    }
  }

  add(code: string, message: string, path: PathSegment[], value?: unknown): void {
    this.problems.push({ code, message, path, ...(value !== undefined ? { value } : {}) });
  }

  table(name: string, path: PathSegment[]): ShorthandTable | null {
    const t = this.tables.get(name);
    if (!t) this.add("WORLD_UNKNOWN_TABLE", `shorthand names unknown table "${name}"`, path, name);
    return t ?? null;
  }

  /** A single-column `param` on a composite key cannot say which column it stands for. */
  param(t: ShorthandTable, param: string | undefined, path: PathSegment[]): string | undefined {
    if (param !== undefined && t.keys.length > 1) this.add("WORLD_SHORTHAND", `table "${t.name}" has a composite key (${t.keys.join(", ")}): each key column is bound to the parameter of its own name; leave out param`, path, param);
    return param;
  }

  /** Exactly one kind, and only the fields that kind takes. */
  kindOf<K extends string>(item: Record<string, unknown>, kinds: readonly K[], fields: Record<K, readonly string[]>, path: PathSegment[]): K | null {
    const present = kinds.filter((k) => item[k] !== undefined);
    if (present.length !== 1) {
      this.add("WORLD_SHORTHAND", present.length === 0 ? `give one of: ${kinds.join(", ")}` : `give only one of ${present.join(" and ")}`, path);
      return null;
    }
    const kind = present[0] as K;
    const all = new Set(Object.values<readonly string[]>(fields).flat());
    for (const f of all) {
      if (item[f] !== undefined && !fields[kind].includes(f)) this.add("WORLD_SHORTHAND", `\`${f}\` does not apply to \`${kind}\` (it takes: ${fields[kind].join(", ") || "nothing else"})`, [...path, f]);
    }
    return kind;
  }

  tableRow(t: TableSource, i: number): Record<string, unknown> {
    const out: Record<string, unknown> = { ...t };
    if (Array.isArray(t.primary_key)) {
      if (t.key_columns !== undefined) this.add("WORLD_SHORTHAND", "give the composite key once: `primary_key: [a, b]` (key_columns is what it compiles to)", ["tables", i, "key_columns"]);
      if (t.columns.some((c) => c.name === ROW_KEY_COLUMN)) this.add("WORLD_DUPLICATE", `table "${t.name}" has a composite key, whose row-key column "${ROW_KEY_COLUMN}" the runtime adds: rename the column`, ["tables", i, "primary_key"], ROW_KEY_COLUMN);
      out.primary_key = ROW_KEY_COLUMN;
      out.key_columns = t.primary_key;
      out.columns = [...t.columns, { name: ROW_KEY_COLUMN, type: "text", nullable: false, hidden: false, description: `Row key kept by the runtime: ${t.primary_key.join(", ")} as a JSON array.` }];
    }
    if (t.ordered) out.rows = numberRows(t.rows, t.ordered);
    return out;
  }

  precondition(op: OperationSource, pc: PreconditionSource, path: PathSegment[]): Record<string, unknown> | null {
    const kind = this.kindOf(pc as Record<string, unknown>, PRECONDITION_KINDS, PRECONDITION_FIELDS, path);
    if (kind === null) return null;
    const sql = kind === "sql" ? (pc.sql as string) : this.preconditionSql(kind, op, pc, path);
    if (sql === null) return null;
    return { id: pc.id, sql, message: pc.message, ...(pc.rule !== undefined ? { rule: pc.rule } : {}) };
  }

  preconditionSql(kind: Exclude<(typeof PRECONDITION_KINDS)[number], "sql">, _op: OperationSource, pc: PreconditionSource, path: PathSegment[]): string | null {
    const t = this.table(pc[kind] as string, [...path, kind]);
    if (!t) return null;
    const param = this.param(t, pc.param, [...path, "param"]);
    switch (kind) {
      case "exists":
        return existsSql(t, param);
      case "owned": {
        const customerTable = this.tables.get(this.src.customer_table);
        const customer = pc.customer ?? (customerTable?.keys.length === 1 ? customerTable.keys[0] : undefined);
        if (!t.owner) return this.fail(`table "${t.name}" has no owner_column, so \`owned\` cannot tell whose row it is`, [...path, "owned"]);
        if (!customer) return this.fail("name the parameter holding the customer's key with `customer`", path);
        return ownedSql(t, t.owner, customer, param);
      }
      case "in_state":
        if (!pc.where || Object.keys(pc.where).length === 0) return this.fail("`in_state` needs `where` (the conditions the row must meet)", path);
        return inStateSql(t, pc.where, param);
      case "limit": {
        const comparators = (Object.keys(LIMIT_OPERATORS) as LimitComparator[]).filter((c) => pc[c] !== undefined);
        if (pc.value === undefined) return this.fail("`limit` needs `value` (the column or :param that is limited)", path);
        if (comparators.length !== 1) return this.fail(`give exactly one of ${Object.keys(LIMIT_OPERATORS).join(", ")}`, path);
        const c = comparators[0] as LimitComparator;
        const bound = this.bound(pc[c] as NonNullable<PreconditionSource["above"]>, [...path, c]);
        return bound === null ? null : limitSql(t, pc.value, c, bound, param);
      }
      case "referenced": {
        if (pc.via === undefined) return this.fail("`referenced` needs `via` (the column that references the other table)", path);
        const col = this.sourceTables.get(t.name)?.columns.find((c) => c.name === pc.via);
        const ref = col?.references?.split(".");
        if (!ref) return this.fail(`column "${t.name}.${pc.via}" has no \`references\`, so the referenced table is unknown`, [...path, "via"], pc.via);
        return referencedSql(t, pc.via, ref[0] as string, ref[1] as string, pc.where ?? {}, pc.same ?? [], param);
      }
    }
  }

  bound(b: NonNullable<PreconditionSource["above"]>, path: PathSegment[]): string | null {
    if (typeof b === "number" || typeof b === "string") return String(b);
    const rule = this.src.rules.find((r) => r.id === b.rule);
    if (!rule) return this.fail(`unknown rule "${b.rule}"`, path, b.rule);
    if (rule.value === undefined) return this.fail(`rule "${b.rule}" has no \`value\` to compare with`, path, b.rule);
    return String(rule.value);
  }

  fail(message: string, path: PathSegment[], value?: unknown): null {
    this.add("WORLD_SHORTHAND", message, path, value);
    return null;
  }

  effect(e: EffectSource, path: PathSegment[]): Record<string, unknown> | null {
    const kind = this.kindOf(e as Record<string, unknown>, EFFECT_KINDS, EFFECT_FIELDS, path);
    if (kind === null) return null;
    if (kind === "sql") return { sql: e.sql };
    const t = this.table((kind === "update" ? e.update : e.insert) as string, [...path, kind]);
    if (!t) return null;
    if (kind === "update") {
      if (!e.set || Object.keys(e.set).length === 0) return this.fail("`update` needs `set` (value by column)", path);
      return { sql: updateSql(t, e.set, this.param(t, e.param, [...path, "param"])) };
    }
    if (!e.values || Object.keys(e.values).length === 0) return this.fail("`insert` needs `values` (value by column)", path);
    if (e.from === undefined) {
      if (e.param !== undefined) return this.fail("`param` names the key of the `from` row; give `from`", [...path, "param"]);
      return { sql: insertSql(t, e.values) };
    }
    const from = this.table(e.from, [...path, "from"]);
    return from ? { sql: insertSql(t, e.values, { table: from, ...(e.param !== undefined ? { param: this.param(from, e.param, [...path, "param"]) } : {}) }) } : null;
  }

  result(r: ResultSource, path: PathSegment[]): Record<string, unknown> | null {
    if ((r.sql === undefined) === (r.table === undefined)) return this.fail("give either `sql` or `table` with `columns`", path);
    const shorthand = ["columns", "param", "by", "all", "order_by"].filter((k) => r[k as keyof ResultSource] !== undefined);
    if (r.sql !== undefined) {
      for (const k of shorthand) this.add("WORLD_SHORTHAND", `\`${k}\` belongs to the result shorthand (table + columns), not to \`sql\``, [...path, k]);
      return { sql: r.sql, many: r.many ?? false, ...(r.json !== undefined ? { json: r.json } : {}) };
    }
    const t = this.table(r.table as string, [...path, "table"]);
    if (!t) return null;
    if (!r.columns) return this.fail("the result shorthand needs `columns`", path);
    if (r.by !== undefined && r.all) return this.fail("give `by` or `all`, not both", path);
    const sql = resultSql(t, r.columns, { ...(r.by === undefined ? { param: this.param(t, r.param, [...path, "param"]) } : { param: r.param, by: r.by }), all: r.all === true, ...(r.order_by ? { orderBy: r.order_by } : {}) });
    return { sql, many: r.many ?? (r.by !== undefined || r.all === true), ...(r.json !== undefined ? { json: r.json } : {}) };
  }

  operation(op: OperationSource, i: number): Record<string, unknown> {
    const base: PathSegment[] = ["operations", i];
    const { transition, ...rest } = op;
    const preconditions: Array<Record<string, unknown> | null> = [];
    const effects: Array<Record<string, unknown> | null> = [];
    let last: Record<string, unknown> | null = null;
    if (transition) {
      const tp: PathSegment[] = [...base, "transition"];
      const t = this.table(transition.table, [...tp, "table"]);
      if (t) {
        const param = this.param(t, transition.param, [...tp, "param"]);
        const from = Array.isArray(transition.from) ? transition.from : [transition.from];
        const id = transition.id ?? `${transition.column}_${from.map((v) => String(v)).join("_or_")}`;
        preconditions.push({ id, sql: inStateSql(t, { [transition.column]: transition.from }, param), message: transition.message, ...(transition.rule !== undefined ? { rule: transition.rule } : {}) });
        last = { sql: updateSql(t, { [transition.column]: transition.to, ...(transition.set ?? {}) }, param) };
      }
    }
    op.preconditions.forEach((pc, j) => preconditions.push(this.precondition(op, pc, [...base, "preconditions", j])));
    op.effects.forEach((e, j) => effects.push(this.effect(e, [...base, "effects", j])));
    if (last) effects.push(last);
    const result = op.result === null ? null : this.result(op.result, [...base, "result"]);
    return { ...rest, preconditions: preconditions.filter((p) => p !== null), effects: effects.filter((e) => e !== null), result };
  }
}

/** Fixed rows of an ordered table: a row without a position gets the next one of its parent. */
function numberRows(rows: TableSource["rows"], ordered: { parent: string; position: string }): TableSource["rows"] {
  const next = new Map<unknown, number>();
  return rows.map((row) => {
    const parent = row[ordered.parent];
    const given = row[ordered.position];
    if (typeof given === "number") {
      next.set(parent, Math.max(next.get(parent) ?? 1, given + 1));
      return row;
    }
    if (given !== undefined && given !== null) return row;
    const n = next.get(parent) ?? 1;
    next.set(parent, n + 1);
    return { ...row, [ordered.position]: n };
  });
}

/** Expand a parsed world.yaml (see the module comment). */
export function expandWorld(src: WorldSource): Expansion {
  const x = new Expander(src);
  const tables = src.tables.map((t, i) => x.tableRow(t, i));
  const operations = src.operations.map((op, i) => x.operation(op, i));
  const model = { ...src, tables, operations };
  const sourcePath = (path: readonly PathSegment[]): PathSegment[] => {
    const [head, i, part, j, ...rest] = path;
    if (head === "operations" && typeof i === "number" && typeof j === "number") {
      const op = src.operations[i];
      if (op?.transition && part === "preconditions") return j === 0 ? ["operations", i, "transition", ...rest] : ["operations", i, part, j - 1, ...rest];
      if (op?.transition && part === "effects" && j === op.effects.length) return ["operations", i, "transition", ...rest];
    }
    if (head === "tables" && typeof i === "number" && part === "columns" && typeof j === "number") {
      const t = src.tables[i];
      if (t && j >= t.columns.length) return ["tables", i, "primary_key"];
    }
    return [...path];
  };
  return { model, problems: x.problems, sourcePath };
}
