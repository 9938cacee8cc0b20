import Database from "better-sqlite3";
import type { RowChange, Table } from "../schemas/index.js";
import type { CompiledWorld } from "./compile-world.js";
import { createTableSql, ident, indexesSql } from "./schema-sql.js";
import { guardConnection, type SqlLimits } from "./sql-guard.js";

/**
 * The agent's view of an episode's state: a separate SQLite connection whose schema has only the
 * visible columns of the world's tables. Hidden columns, built-in tables (`_proposals`), capture
 * triggers and indexes on hidden columns do not exist in it, so no query — however it is written
 * (CTE column lists, `SELECT *`, ORDER BY position, sqlite_schema) — can read or sort by them.
 *
 * The view of an initial state is built once and kept serialized (cached per state buffer); an
 * episode opens its copy only when the agent first queries, then brings it up to date from the
 * row changes the episode committed (changes.ts captures them per event anyway), applying only
 * what is new since the last query. Under `reuse` isolation the view runs in an outer transaction
 * like the episode's connection and is rolled back to s0 with it.
 */

interface ViewTable {
  name: string;
  key: string;
  /** Visible columns, in declaration order. */
  columns: string[];
  /** The key is hidden: the view cannot address rows by it, so the table is re-copied on change. */
  hiddenKey: boolean;
}

function viewTables(world: CompiledWorld): ViewTable[] {
  return world.world.tables.map((t) => {
    const columns = t.columns.filter((c) => !c.hidden).map((c) => c.name);
    return { name: t.name, key: t.primary_key, columns, hiddenKey: !columns.includes(t.primary_key) };
  });
}

/** The world table with its hidden columns (and any key, owner or index on them) left out. */
function visibleTable(t: Table): Table {
  const columns = t.columns.filter((c) => !c.hidden);
  const keep = new Set(columns.map((c) => c.name));
  const v: Table = { ...t, columns, primary_key: keep.has(t.primary_key) ? t.primary_key : "" };
  if (v.owner_column !== undefined && !keep.has(v.owner_column)) delete v.owner_column;
  // The view copies a composite key's row-key column as a plain key column (its rows come from the state).
  delete v.key_columns;
  return v;
}

const viewBuffers = new WeakMap<Buffer, Buffer>();

/** The serialized view of a state buffer (built on first use, then cached per buffer). */
export function agentViewBuffer(state: Buffer, world: CompiledWorld): Buffer {
  let view = viewBuffers.get(state);
  if (view) return view;
  const db = new Database(state);
  try {
    db.exec("ATTACH DATABASE ':memory:' AS agent_view");
    for (const t of world.world.tables) {
      const v = visibleTable(t);
      if (v.columns.length === 0) continue;
      db.exec(createTableSql(v).replace(/^CREATE TABLE /, "CREATE TABLE agent_view."));
      for (const idx of indexesSql(v)) db.exec(idx.replace(/^CREATE INDEX /, "CREATE INDEX agent_view."));
      // Rows keep their rowids, so a scan without ORDER BY returns them in the order the state does.
      const cols = v.columns.map((c) => ident(c.name)).join(", ");
      const rowid = t.columns.find((c) => c.name === t.primary_key)?.type === "integer" ? "" : "rowid, ";
      db.exec(`INSERT INTO agent_view.${ident(t.name)} (${rowid}${cols}) SELECT ${rowid}${cols} FROM main.${ident(t.name)}`);
    }
    view = db.serialize({ attached: "agent_view" });
  } finally {
    db.close();
  }
  viewBuffers.set(state, view);
  return view;
}

interface TableStatements {
  table: ViewTable;
  upsert?: Database.Statement;
  remove?: Database.Statement;
}

export class AgentView {
  readonly db: Database.Database;
  readonly #tables = new Map<string, TableStatements>();
  readonly #queryOnly: [Database.Statement, Database.Statement];
  #inTransaction = false;
  /** How many entries of the episode's change log the view holds. */
  #applied = 0;

  constructor(state: Buffer, world: CompiledWorld, limits: SqlLimits) {
    this.db = new Database(agentViewBuffer(state, world));
    try {
      guardConnection(this.db, limits);
    } catch (e) {
      this.db.close();
      throw e;
    }
    for (const t of viewTables(world)) if (t.columns.length > 0) this.#tables.set(t.name, { table: t });
    this.#queryOnly = [this.db.prepare("PRAGMA query_only = ON"), this.db.prepare("PRAGMA query_only = OFF")];
  }

  /**
   * Apply the changes committed since the last sync (`log` is the episode's whole change log since
   * s0). `readState` reads a table's visible rows from the episode's state, for tables whose key
   * is hidden.
   */
  sync(log: readonly RowChange[], readState: (table: string, columns: readonly string[]) => unknown[][]): void {
    if (!this.#inTransaction || !this.db.inTransaction) {
      // Had SQLite rolled the outer transaction back on its own, the view would be at s0 again: replay the whole log.
      if (this.#inTransaction) this.#applied = 0;
      this.db.prepare("BEGIN").run();
      this.#inTransaction = true;
    }
    if (this.#applied === log.length) return;
    const recopy = new Set<string>();
    for (let i = this.#applied; i < log.length; i++) {
      const c = log[i] as RowChange;
      const s = this.#tables.get(c.table);
      if (!s) continue; // `_proposals`, or a table with no visible column
      if (s.table.hiddenKey) {
        recopy.add(c.table);
        continue;
      }
      if (c.after === null) {
        (s.remove ??= this.db.prepare(`DELETE FROM ${ident(s.table.name)} WHERE ${ident(s.table.key)} = ?`)).run(c.key);
      } else {
        const cols = s.table.columns;
        // An upsert keeps the row's rowid, as the state's UPDATE does (INSERT OR REPLACE would not).
        const sets = cols.filter((k) => k !== s.table.key).map((k) => `${ident(k)} = excluded.${ident(k)}`);
        s.upsert ??= this.db.prepare(
          `INSERT INTO ${ident(s.table.name)} (${cols.map(ident).join(", ")}) VALUES (${cols.map(() => "?").join(", ")}) ON CONFLICT (${ident(s.table.key)}) DO ${sets.length ? `UPDATE SET ${sets.join(", ")}` : "NOTHING"}`,
        );
        const after = c.after;
        s.upsert.run(cols.map((k) => after[k] ?? null));
      }
    }
    for (const name of recopy) {
      const s = this.#tables.get(name) as TableStatements;
      const cols = s.table.columns;
      this.db.prepare(`DELETE FROM ${ident(name)}`).run();
      const insert = this.db.prepare(`INSERT INTO ${ident(name)} (${cols.map(ident).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`);
      for (const row of readState(name, cols)) insert.run(row);
    }
    this.#applied = log.length;
  }

  /** Turn `PRAGMA query_only` on or off around an agent query. */
  queryOnly(on: boolean): void {
    this.#queryOnly[on ? 0 : 1].run();
  }

  /** Back to s0 (the episode's state was rolled back). */
  reset(): void {
    if (this.#inTransaction && this.db.inTransaction) this.db.prepare("ROLLBACK").run();
    this.#inTransaction = false;
    this.#applied = 0;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
