import Database from "better-sqlite3";
import { z } from "zod";
import type { Table, WorldModel } from "../schemas/index.js";
import { OverlayChange } from "../schemas/index.js";
import { RandomStream } from "../core/random.js";
import { FoundryError } from "../core/errors.js";
import { ident, insertableColumns, schemaSql, stateTables } from "./schema-sql.js";
import { generateRows, seededFaker, toSqlValue, type SqlValue } from "./generate-rows.js";
import { stateContentHash } from "./state-hash.js";
import { guardConnection, type SqlLimits } from "./sql-guard.js";

/**
 * The initial state s0: a world model turned into an SQLite database, serialized once. Every episode
 * opens its own copy with `new Database(state.buffer)`, so no episode ever sees another's writes.
 */
export interface InitialState {
  /** The serialized database (`db.serialize()`); byte-stable for the same world, seed and overlay. */
  buffer: Buffer;
  /** Content hash of the state tables (see state-hash.ts); what traces record as `initial_state_hash`. */
  hash: string;
  /** Seed the generated rows were drawn with. */
  seed: number;
}

export interface BuildOptions {
  /** Seed of every random stream of the build. */
  seed: number;
  /** Calendar time of logical minute 0; faker's relative dates count from it. Default `2026-03-02T09:00Z`. */
  epoch?: string;
  /** Bounds of the build's SQL statements (sql-guard.ts). Default: the configuration's. */
  sqlLimits?: SqlLimits;
}

export const DEFAULT_EPOCH = "2026-03-02T09:00Z";

type OverlayChange = z.infer<typeof OverlayChange>;

/** Tables in an order where every table a generator `ref`s is filled first (declaration order otherwise). */
function generationOrder(world: WorldModel): Table[] {
  const byName = new Map(world.tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const out: Table[] = [];
  const visit = (t: Table, path: Set<string>) => {
    if (done.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const gen of Object.values(t.generate?.fields ?? {})) {
      if (!("ref" in gen)) continue;
      const dep = byName.get(gen.ref.split(".")[0] as string);
      if (dep && dep !== t) visit(dep, path);
    }
    done.add(t.name);
    out.push(t);
  };
  for (const t of world.tables) visit(t, new Set());
  return out;
}

/** Rows are value arrays in the order of `insertableColumns(table)`. */
function insertRows(db: Database.Database, table: Table, rows: SqlValue[][], what: string): void {
  const cols = insertableColumns(table);
  const stmt = db.prepare(`INSERT INTO ${ident(table.name)} (${cols.map((c) => ident(c.name)).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
  rows.forEach((row, i) => {
    try {
      stmt.run(row);
    } catch (e) {
      throw new FoundryError("WORLD_BUILD", `cannot insert ${what} row ${i + 1} of table "${table.name}": ${(e as Error).message}`, { path: `tables.${table.name}` }, row);
    }
  });
}

function finish(db: Database.Database, world: WorldModel, seed: number): InitialState {
  const hash = stateContentHash(db, stateTables(world));
  const buffer = db.serialize();
  db.close();
  return { buffer, hash, seed };
}

/** Build s0 of a world: schema, fixed rows, then seeded generated rows. */
export function buildBaseState(world: WorldModel, options: BuildOptions): InitialState {
  const db = new Database(":memory:");
  try {
    guardConnection(db, options.sqlLimits);
    for (const sql of schemaSql(world)) db.exec(sql);
    const root = new RandomStream(options.seed);
    const faker = seededFaker(options.epoch ?? DEFAULT_EPOCH);
    const existing = (table: string, column: string): SqlValue[] =>
      (db.prepare(`SELECT ${ident(column)} FROM ${ident(table)} ORDER BY rowid`).pluck().all() as SqlValue[]).filter((v) => v !== null);
    for (const t of world.tables) {
      insertRows(db, t, t.rows.map((r) => insertableColumns(t).map((c) => toSqlValue(c, r[c.name]))), "fixed");
    }
    for (const t of generationOrder(world)) {
      insertRows(db, t, generateRows(t, { stream: root, faker, existing }), "generated");
    }
    return finish(db, world, options.seed);
  } catch (e) {
    if (db.open) db.close();
    throw e;
  }
}

/** Apply a task's `initial_state` overlay (upserts and deletes) to a base state. */
export function applyOverlay(base: InitialState, world: WorldModel, overlay: readonly OverlayChange[], file = "task"): InitialState {
  if (overlay.length === 0) return base;
  const db = new Database(base.buffer);
  try {
    guardConnection(db);
    overlay.forEach((change, i) => applyChange(db, world, change, `initial_state[${i}]`, file));
    return finish(db, world, base.seed);
  } catch (e) {
    if (db.open) db.close();
    throw e;
  }
}

function applyChange(db: Database.Database, world: WorldModel, change: OverlayChange, path: string, file: string): void {
  const table = world.tables.find((t) => t.name === change.table);
  if (!table) throw new FoundryError("TASK_OVERLAY", `overlay names unknown table "${change.table}"`, { file, path: `${path}.table` }, change.table);
  for (const k of Object.keys(change.row)) {
    if (!table.columns.some((c) => c.name === k)) throw new FoundryError("TASK_OVERLAY", `overlay row has unknown column "${k}" (table "${table.name}")`, { file, path: `${path}.row.${k}` }, k);
  }
  // A composite key is addressed by its key columns (the row-key column is generated from them).
  const keyCols = table.key_columns ?? [table.primary_key];
  const missing = keyCols.filter((k) => change.row[k] === undefined || change.row[k] === null);
  if (missing.length > 0) throw new FoundryError("TASK_OVERLAY", `overlay row has no ${keyCols.length > 1 ? "key column" : "primary key"} "${missing.join('", "')}"`, { file, path: `${path}.row` });
  if (table.key_columns && table.primary_key in change.row) throw new FoundryError("TASK_OVERLAY", `overlay row gives "${table.primary_key}", which the runtime computes from ${keyCols.join(", ")}`, { file, path: `${path}.row.${table.primary_key}` });
  const key = keyCols.length === 1 ? change.row[keyCols[0] as string] : JSON.stringify(keyCols.map((k) => change.row[k]));
  const where = keyCols.map((k) => `${ident(k)} = ?`).join(" AND ");
  const keyValues = keyCols.map((k) => toSqlValue(table.columns.find((c) => c.name === k), change.row[k]));
  const exists = db.prepare(`SELECT 1 FROM ${ident(table.name)} WHERE ${where}`).get(...keyValues) !== undefined;
  try {
    if (change.op === "delete") {
      if (!exists) throw new FoundryError("TASK_OVERLAY", `overlay deletes a row that does not exist: ${table.name} ${JSON.stringify(key)}`, { file, path: `${path}.row.${keyCols[0]}` }, key);
      db.prepare(`DELETE FROM ${ident(table.name)} WHERE ${where}`).run(...keyValues);
      return;
    }
    const cols = table.columns.filter((c) => c.name in change.row);
    const values = cols.map((c) => toSqlValue(c, change.row[c.name]));
    if (exists) {
      const sets = cols.filter((c) => !keyCols.includes(c.name));
      if (sets.length === 0) return;
      db.prepare(`UPDATE ${ident(table.name)} SET ${sets.map((c) => `${ident(c.name)} = ?`).join(", ")} WHERE ${where}`).run(
        ...sets.map((c) => toSqlValue(c, change.row[c.name])),
        ...keyValues,
      );
    } else {
      db.prepare(`INSERT INTO ${ident(table.name)} (${cols.map((c) => ident(c.name)).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).run(...values);
    }
  } catch (e) {
    if (FoundryError.is(e)) throw e;
    throw new FoundryError("TASK_OVERLAY", `overlay ${change.op} on table "${table.name}" failed: ${(e as Error).message}`, { file, path }, change.row);
  }
}

/** Base state plus the task's overlay, in one call (use buildBaseState + applyOverlay to share the base). */
export function buildInitialState(world: WorldModel, options: BuildOptions & { overlay?: readonly OverlayChange[] }): InitialState {
  return applyOverlay(buildBaseState(world, options), world, options.overlay ?? []);
}
