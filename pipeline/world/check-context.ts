import Database from "better-sqlite3";
import type { Task, WorldModel } from "../schemas/index.js";
import type { InitialState } from "./build-state.js";
import type { CheckContext } from "./types.js";
import { compileWorld } from "./compile-world.js";
import { ident } from "./schema-sql.js";

/**
 * The CheckContext of types.ts over an initial state: rows of s0 by table and key, read from a
 * private copy of the state opened on first use and remembered (s0 never changes, and checks ask
 * for the same rows over and over). Each answer is a fresh copy. `close()` releases the database.
 */
export function createCheckContext(world: WorldModel, task: Task, initial: InitialState): CheckContext & { close(): void } {
  const compiled = compileWorld(world);
  let db: Database.Database | undefined;
  const rowStmts = new Map<string, Database.Statement>();
  const rows = new Map<string, Map<string | number, Record<string, unknown> | null>>();
  const open = () => (db ??= new Database(initial.buffer, { readonly: false }));
  const tableOf = (name: string) => compiled.stateTables.find((t) => t.name === name);
  return {
    world: compiled.world,
    task,
    initialRow(table, key) {
      let known = rows.get(table);
      let row = known?.get(key);
      if (row === undefined) {
        const t = tableOf(table);
        if (!t) return null;
        let stmt = rowStmts.get(table);
        if (!stmt) rowStmts.set(table, (stmt = open().prepare(`SELECT * FROM ${ident(t.name)} WHERE ${ident(t.primaryKey)} = ?`)));
        row = (stmt.get(key) as Record<string, unknown> | undefined) ?? null;
        if (!known) rows.set(table, (known = new Map()));
        known.set(key, row);
      }
      return row === null ? null : { ...row };
    },
    initialKeys(table) {
      const t = tableOf(table);
      if (!t) return [];
      return open().prepare(`SELECT ${ident(t.primaryKey)} FROM ${ident(t.name)} ORDER BY ${ident(t.primaryKey)}`).pluck().all() as Array<string | number>;
    },
    close() {
      if (db?.open) db.close();
    },
  };
}
