import type { Operation, SopWorkflow, Table, WorldModel } from "../../schemas/index.js";

/** Look-ups over a world model that the plan search needs again and again. */
export class WorldIndex {
  readonly world: WorldModel;
  readonly ops = new Map<string, Operation>();
  readonly tables = new Map<string, Table>();
  /** Primary-key column → table. */
  readonly tableByKey = new Map<string, Table>();

  constructor(world: WorldModel) {
    this.world = world;
    for (const o of world.operations) this.ops.set(o.name, o);
    for (const t of world.tables) {
      this.tables.set(t.name, t);
      if (!this.tableByKey.has(t.primary_key)) this.tableByKey.set(t.primary_key, t);
    }
  }

  get customerTable(): Table {
    return this.tables.get(this.world.customer_table) as Table;
  }

  /** Agent-side write operations a workflow's steps name, in step order. */
  agentWrites(wf: SopWorkflow): string[] {
    return wf.steps.map((s) => s.operation).filter((o): o is string => !!o && this.ops.get(o)?.side === "agent" && this.ops.get(o)?.access === "write");
  }

  /**
   * The table a workflow is about: the first table (other than the customer table) whose primary key
   * is a parameter of one of its operations, in step order; the customer table when there is none.
   */
  subjectTable(wf: SopWorkflow): Table {
    for (const s of wf.steps) {
      const op = s.operation ? this.ops.get(s.operation) : undefined;
      for (const p of Object.keys(op?.params ?? {})) {
        const t = this.tableByKey.get(p);
        if (t && t.name !== this.world.customer_table) return t;
      }
    }
    return this.customerTable;
  }

  /** Tables an operation writes (named after INSERT INTO / UPDATE / DELETE FROM in its effects). */
  writtenTables(opName: string): string[] {
    const op = this.ops.get(opName);
    const out = new Set<string>();
    for (const e of op?.effects ?? []) {
      const m = /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)/i.exec(e.sql);
      if (m?.[1]) out.add(m[1]);
    }
    return [...out].sort();
  }

  /** Columns of `table` an operation's UPDATE effects set (the names before `=` in each SET list). */
  setColumns(opName: string, table: string): string[] {
    const out = new Set<string>();
    for (const e of this.ops.get(opName)?.effects ?? []) {
      const m = /^\s*update\s+([a-z_][a-z0-9_]*)\s+set\s+([\s\S]*?)(?:\bwhere\b|$)/i.exec(e.sql);
      if (!m || m[1] !== table) continue;
      let depth = 0;
      let part = "";
      const parts: string[] = [];
      for (const ch of m[2] as string) {
        if (ch === "(") depth++;
        if (ch === ")") depth--;
        if (ch === "," && depth === 0) {
          parts.push(part);
          part = "";
        } else part += ch;
      }
      parts.push(part);
      for (const x of parts) {
        const col = /^\s*"?([a-z_][a-z0-9_]*)"?\s*=/i.exec(x)?.[1];
        if (col) out.add(col);
      }
    }
    return [...out].sort();
  }
}
