import Database from "better-sqlite3";
import type { Table } from "../../schemas/index.js";
import type { DomainContext } from "../../world/domain-context.js";
import { ident } from "../../world/schema-sql.js";
import type { WorldIndex } from "./world-index.js";

export type Row = Record<string, unknown>;

/** Read access to a domain's base initial state, for designing tasks (never for agents). */
export class DomainRows {
  readonly #db: Database.Database;
  readonly #index: WorldIndex;

  constructor(ctx: DomainContext, index: WorldIndex) {
    this.#db = new Database(ctx.base.buffer, { readonly: true });
    this.#index = index;
  }

  close(): void {
    this.#db.close();
  }

  get(table: Table, key: unknown): Row | null {
    return (this.#db.prepare(`SELECT * FROM ${ident(table.name)} WHERE ${ident(table.primary_key)} = ?`).get(key) as Row | undefined) ?? null;
  }

  /** Rows of `table` owned by customer `customer` (the customer row itself for the customer table), in key order. */
  owned(table: Table, customer: unknown): Row[] {
    if (table.name === this.#index.customerTable.name) {
      const r = this.get(table, customer);
      return r ? [r] : [];
    }
    if (!table.owner_column) return [];
    return this.#db.prepare(`SELECT * FROM ${ident(table.name)} WHERE ${ident(table.owner_column)} = ? ORDER BY ${ident(table.primary_key)}`).all(customer) as Row[];
  }

  /** The rows `row` references through its foreign keys, then the customer row. */
  related(table: Table, row: Row, customer: unknown): Row[] {
    const out: Row[] = [];
    for (const c of table.columns) {
      if (!c.references || row[c.name] === null || row[c.name] === undefined) continue;
      const [t] = c.references.split(".");
      const target = this.#index.tables.get(t as string);
      const r = target ? this.get(target, row[c.name]) : null;
      if (r) out.push(r);
    }
    // Rows that point at the subject, when a table has exactly one (e.g. the one hold on a declaration).
    const key = row[table.primary_key];
    for (const other of this.#index.world.tables) {
      const fk = other.columns.find((c) => c.references === `${table.name}.${table.primary_key}`);
      if (!fk || other.name === table.name) continue;
      const hits = this.#db.prepare(`SELECT * FROM ${ident(other.name)} WHERE ${ident(fk.name)} = ? LIMIT 2`).all(key) as Row[];
      if (hits.length === 1) out.push(hits[0] as Row);
    }
    const cust = this.get(this.#index.customerTable, customer);
    if (cust) out.push(cust);
    return out;
  }
}
