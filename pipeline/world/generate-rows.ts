import type { Faker } from "@faker-js/faker";
// The English locale module only: the package root also loads every other locale (86 modules, a
// third of a CPU-second at each start). Its instance's class and merged definitions (en over base)
// make the same seeded instances as `new Faker({ locale: [en, base] })`.
import { faker as english } from "@faker-js/faker/locale/en";
import type { Column, FieldGenerator, Table } from "../schemas/index.js";
import type { RandomStream } from "../core/random.js";
import { FoundryError } from "../core/errors.js";

/**
 * Seeded synthetic rows. Values are drawn column by column, each column from its own stream
 * (`generate/<table>/<column>`), so adding a column or a table never shifts the values of another.
 */

export type SqlValue = string | number | null;

/** A faker instance whose output depends only on the seeds it is given and on `epoch` (its reference date). */
export function seededFaker(epoch: string): Faker {
  const f = new (english.constructor as typeof Faker)({ locale: [english.rawDefinitions] });
  // Relative dates (date.past, date.recent) count from the domain's epoch, never from the wall clock.
  f.setDefaultRefDate(new Date(epoch));
  return f;
}

/** Convert a world value to what SQLite stores for a column (booleans as 0/1, dates as ISO text). */
export function toSqlValue(col: Column | undefined, v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "number") return col?.type === "text" ? String(v) : v;
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

function seqValue(pattern: string, n: number): string {
  return pattern.replace(/\{n(?::(\d+))?\}/g, (_m, width: string | undefined) => (width ? String(n).padStart(Number(width), "0") : String(n)));
}

function callFaker(f: Faker, path: string): unknown {
  const [mod, method] = path.split(".") as [string, string];
  const m = (f as unknown as Record<string, Record<string, (() => unknown) | undefined>>)[mod];
  const fn = m?.[method];
  if (typeof fn !== "function") throw new FoundryError("WORLD_GENERATOR", `faker has no method "${path}"`, {}, path);
  return fn.call(m);
}

/** Context the generator needs: existing values of a column (for `ref` and for skipping taken `seq` values). */
export interface GenerateContext {
  stream: RandomStream;
  faker: Faker;
  existing(table: string, column: string): SqlValue[];
}

/** `count` values of one column. */
function columnValues(table: Table, col: Column, gen: FieldGenerator | undefined, count: number, ctx: GenerateContext): SqlValue[] {
  const rng = ctx.stream.fork(`generate/${table.name}/${col.name}`);
  const out: SqlValue[] = [];
  if (gen === undefined) return new Array<SqlValue>(count).fill(null);
  if ("seq" in gen) {
    const taken = new Set(ctx.existing(table.name, col.name));
    let n = 1;
    while (out.length < count) {
      const v = toSqlValue(col, seqValue(gen.seq, n++));
      if (!taken.has(v)) out.push(v);
    }
    return out;
  }
  if ("faker" in gen) ctx.faker.seed(rng.int(0, 2 ** 31 - 1));
  let pool: SqlValue[] = [];
  if ("ref" in gen) {
    const [t, c] = gen.ref.split(".") as [string, string];
    pool = ctx.existing(t, c);
    if (pool.length === 0 && count > 0) {
      if (!col.nullable) throw new FoundryError("WORLD_GENERATE_EMPTY_REF", `generator "${table.name}.${col.name}" refs "${gen.ref}", which has no rows`, { path: `tables.${table.name}.generate.fields.${col.name}` }, gen.ref);
    }
  }
  for (let i = 0; i < count; i++) {
    if ("choice" in gen) out.push(toSqlValue(col, rng.pick(gen.choice, gen.weights)));
    else if ("int" in gen) out.push(gen.int[0] + gen.step * rng.int(0, Math.floor((gen.int[1] - gen.int[0]) / gen.step)));
    else if ("real" in gen) {
      const x = gen.real[0] + rng.float() * (gen.real[1] - gen.real[0]);
      out.push(Number(x.toFixed(gen.decimals)));
    } else if ("faker" in gen) out.push(toSqlValue(col, callFaker(ctx.faker, gen.faker)));
    else if ("ref" in gen) out.push(pool.length === 0 ? null : rng.pick(pool));
    else out.push(toSqlValue(col, gen.const));
  }
  return out;
}

/**
 * Positions of generated child rows of an ordered table: each continues its parent's numbering
 * after the rows already there (fixed rows, or generated rows of earlier parents).
 */
function positions(table: Table, parents: SqlValue[], ctx: GenerateContext): number[] {
  const order = table.ordered as { parent: string; position: string };
  const next = new Map<SqlValue, number>();
  const have = ctx.existing(table.name, order.parent);
  const pos = ctx.existing(table.name, order.position);
  have.forEach((p, i) => next.set(p, Math.max(next.get(p) ?? 1, Number(pos[i]) + 1)));
  return parents.map((p) => {
    const n = next.get(p) ?? 1;
    next.set(p, n + 1);
    return n;
  });
}

/**
 * Generated rows of a table as value arrays in the order of the insertable columns (every column
 * but a composite key's generated row-key column). An ordered table's position column, when it has
 * no generator, is numbered per parent.
 */
export function generateRows(table: Table, ctx: GenerateContext): SqlValue[][] {
  const count = table.generate?.count ?? 0;
  if (count === 0) return [];
  const fields = table.generate?.fields ?? {};
  const columns = table.key_columns ? table.columns.filter((c) => c.name !== table.primary_key) : table.columns;
  const cols = columns.map((c) => columnValues(table, c, fields[c.name], count, ctx));
  const order = table.ordered;
  if (order && fields[order.position] === undefined) {
    const parents = cols[columns.findIndex((c) => c.name === order.parent)] ?? [];
    cols[columns.findIndex((c) => c.name === order.position)] = positions(table, parents, ctx);
  }
  const rows: SqlValue[][] = [];
  for (let i = 0; i < count; i++) rows.push(cols.map((vals) => vals[i] ?? null));
  return rows;
}
