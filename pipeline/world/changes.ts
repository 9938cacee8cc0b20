import Database from "better-sqlite3";
import type { RowChange } from "../schemas/index.js";
import { ident, literal, type StateTable } from "./schema-sql.js";

/**
 * Row-change capture. Every state table has AFTER INSERT, UPDATE and DELETE triggers that hand the
 * row's key and old and new column values straight to a JS function `_capture` each episode
 * connection registers: no log table, no JSON. The triggers are not in InitialState.buffer (anyone
 * may open and write that without knowing about `_capture`); episodes open an "armed" copy of it,
 * derived once per state, that adds them. (Creating them as TEMP triggers per connection instead
 * was measured at ~50 µs per trigger: far more than parsing them with the schema.)
 *
 * `take()` turns what a call captured into RowChanges: one per row, `before` as the row was when the
 * call started and `after` as it is when it ends. A row written several times in one call appears
 * once; a row whose end image equals its start image (inserted then deleted, or updated to the
 * same values) did not change and does not appear. Row images and RowChange objects are built with
 * their keys in code-point order, the canonical order the trace recorder hashes without re-sorting.
 */

type Image = unknown[] | null;
interface Pending {
  table: string;
  key: string | number;
  before: Image;
  after: Image;
}

interface TableShape {
  table: StateTable;
  /** Column names in code-point order: the order values are passed in and keys are written. */
  sorted: string[];
}

function shapeOf(t: StateTable): TableShape {
  return { table: t, sorted: [...t.columns].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

const armedCache = new WeakMap<Buffer, Buffer>();

/** `buffer` plus the capture triggers of `tables`: what episode connections open (cached per buffer). */
export function armedBuffer(buffer: Buffer, tables: readonly StateTable[]): Buffer {
  let armed = armedCache.get(buffer);
  if (!armed) {
    const db = new Database(buffer);
    try {
      db.exec(tables.flatMap((t) => captureTriggersSql(shapeOf(t))).join(";\n"));
      armed = db.serialize();
    } finally {
      db.close();
    }
    armedCache.set(buffer, armed);
  }
  return armed;
}

export class ChangeCapture {
  readonly #shapes = new Map<string, TableShape>();
  #pending: Pending[] = [];

  /** Register `_capture` on a connection opened from an armed buffer. */
  constructor(db: Database.Database, tables: readonly StateTable[]) {
    for (const t of tables) this.#shapes.set(t.name, shapeOf(t));
    // REPLACE deletes the conflicting row; only with recursive triggers does that delete fire a trigger.
    db.pragma("recursive_triggers = ON");
    db.function("_capture", { varargs: true, deterministic: false }, (...args: unknown[]) => {
      this.#record(args);
      return null;
    });
  }

  /** The changes captured since the last take or discard. */
  take(): RowChange[] {
    const pending = this.#pending;
    if (pending.length === 0) return [];
    this.#pending = [];
    if (pending.length === 1) {
      const p = pending[0] as Pending;
      return sameImage(p.before, p.after) ? [] : [this.#change(p)];
    }
    const merged = new Map<string, Pending>();
    for (const p of pending) {
      const id = `${p.table}\u0000${typeof p.key}\u0000${p.key}`;
      const seen = merged.get(id);
      if (seen) seen.after = p.after;
      else merged.set(id, { ...p });
    }
    const out: RowChange[] = [];
    for (const m of merged.values()) if (!sameImage(m.before, m.after)) out.push(this.#change(m));
    return out;
  }

  /** Drop what was captured: the call's savepoint was rolled back. */
  discard(): void {
    this.#pending = [];
  }

  #record(args: unknown[]): void {
    const table = args[0] as string;
    const op = args[1] as "i" | "u" | "d";
    const key = args[2] as string | number;
    const n = this.#shapes.get(table)?.sorted.length ?? 0;
    const first = args.slice(3, 3 + n);
    if (op === "i") this.#pending.push({ table, key, before: null, after: first });
    else if (op === "d") this.#pending.push({ table, key, before: first, after: null });
    else this.#pending.push({ table, key, before: first, after: args.slice(3 + n, 3 + 2 * n) });
  }

  #change(p: Pending): RowChange {
    const cols = (this.#shapes.get(p.table) as TableShape).sorted;
    return { after: toRow(cols, p.after), before: toRow(cols, p.before), key: p.key, table: p.table };
  }
}

function toRow(cols: readonly string[], image: Image): Record<string, unknown> | null {
  if (image === null) return null;
  const row: Record<string, unknown> = {};
  for (let i = 0; i < cols.length; i++) row[cols[i] as string] = image[i];
  return row;
}

function sameImage(a: Image, b: Image): boolean {
  if (a === null || b === null) return a === b;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function captureTriggersSql(s: TableShape): string[] {
  const t = s.table;
  const values = (prefix: "NEW" | "OLD") => s.sorted.map((c) => `${prefix}.${ident(c)}`).join(", ");
  const name = (op: string) => ident(`_capture_${t.name}_${op}`);
  const on = ident(t.name);
  const pk = ident(t.primaryKey);
  const tbl = literal(t.name);
  return [
    `CREATE TRIGGER ${name("i")} AFTER INSERT ON ${on} BEGIN SELECT _capture(${tbl}, 'i', NEW.${pk}, ${values("NEW")}); END`,
    `CREATE TRIGGER ${name("u")} AFTER UPDATE ON ${on} BEGIN SELECT _capture(${tbl}, 'u', NEW.${pk}, ${values("OLD")}, ${values("NEW")}); END`,
    `CREATE TRIGGER ${name("d")} AFTER DELETE ON ${on} BEGIN SELECT _capture(${tbl}, 'd', OLD.${pk}, ${values("OLD")}); END`,
  ];
}
