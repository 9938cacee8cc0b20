import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { canonicalJson } from "../core/canonical-json.js";
import { ident, type StateTable } from "./schema-sql.js";

/**
 * Content hash of a state database: sha256 over the canonical JSON of every state table's column
 * names and rows in primary-key order, tables in name order. It depends on the data only, never on
 * the page layout of the file, so two databases with the same rows hash the same however they were
 * written. (`db.serialize()` happens to be byte-stable for the same build steps too, but an overlay
 * or a VACUUM would change bytes without changing content.)
 */
export function stateContentHash(db: Database.Database, tables: readonly StateTable[]): string {
  const h = createHash("sha256");
  for (const t of [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    h.update(`${canonicalJson({ table: t.name, columns: t.columns })}\n`);
    const stmt = db.prepare(`SELECT ${t.columns.map(ident).join(", ")} FROM ${ident(t.name)} ORDER BY ${ident(t.primaryKey)}`).raw(true);
    for (const row of stmt.iterate() as Iterable<unknown[]>) h.update(`${canonicalJson(row)}\n`);
  }
  return h.digest("hex");
}
