import Database from "better-sqlite3";
import type { Operation } from "../../schemas/index.js";
import type { EnvTool, ResultShape } from "../../schemas/env-config.js";
import type { CompiledOperation, CompiledWorld } from "../compile-world.js";
import type { InitialState } from "../build-state.js";
import { agentToolSpecs } from "../standard-tools.js";
import { CONVERSATION_TOOLS } from "../conversation-tools.js";

/** What the standard tools the simulator answers return (query-tool.ts, the wait call). */
const STANDARD_SHAPES: Record<string, { kind: EnvTool["kind"]; result: ResultShape | null; effects: string }> = {
  query_database: { kind: "query", result: { kind: "object", fields: ["columns", "rows", "row_count", "truncated"] }, effects: "" },
  wait: { kind: "wait", result: { kind: "object", fields: ["waited", "now"] }, effects: "Advances the logical clock by `minutes`; scheduled events that fall due happen." },
  invoke_capability: { kind: "invoke", result: null, effects: "Calls the operation it names with `args`: that operation's effects and answer." },
  list_reference_documents: { kind: "reference", result: null, effects: "" },
  search_documents: { kind: "reference", result: null, effects: "" },
  read_document: { kind: "reference", result: null, effects: "" },
  list_capabilities: { kind: "reference", result: null, effects: "" },
  describe_capability: { kind: "reference", result: null, effects: "" },
};

/** How an operation's effect statements change the state, in words (table and visible columns named; a hidden column is never named). */
export function effectWords(op: Operation, hidden: ReadonlySet<string> = new Set()): string {
  const parts = op.effects.map((e) => {
    const sql = e.sql.replace(/\s+/g, " ").trim();
    const ins = /^INSERT\s+(?:OR\s+\w+\s+)?INTO\s+"?(\w+)"?/i.exec(sql);
    if (ins) return `inserts a row into ${ins[1]}`;
    const upd = /^UPDATE\s+"?(\w+)"?\s+SET\s+(.*?)(?:\s+WHERE\s|$)/i.exec(sql);
    if (upd) {
      const cols = [...(upd[2] ?? "").matchAll(/(?:^|,)\s*"?(\w+)"?\s*=/g)].map((m) => m[1] as string).filter((c) => !hidden.has(`${upd[1]}.${c}`));
      return cols.length > 0 ? `updates ${upd[1]} (${cols.join(", ")})` : `updates ${upd[1]}`;
    }
    const del = /^DELETE\s+FROM\s+"?(\w+)"?/i.exec(sql);
    if (del) return `deletes rows of ${del[1]}`;
    return "changes the state";
  });
  if (op.proposes) parts.push(`records a proposal of kind ${op.proposes.kind} on the terms (${op.proposes.terms.join(", ")}) and returns its proposal_id (PR-0001, PR-0002, … in order)`);
  if (op.requires_approval) parts.push(`consumes the approved proposal of kind ${op.requires_approval.kind} whose terms (${op.requires_approval.terms.join(", ")}) equal the call's`);
  if (parts.length === 0) return op.access === "read" ? "" : "changes nothing";
  return parts.join("; ");
}

/** `table.column` of every hidden column. */
export function hiddenColumns(world: CompiledWorld): Set<string> {
  return new Set(world.world.tables.flatMap((t) => t.columns.filter((c) => c.hidden).map((c) => `${t.name}.${c.name}`)));
}

const PROPOSAL_FIELDS = ["proposal_id", "kind", "terms", "status"];

/**
 * The declared shape of an operation's answer, as the runtime builds it (run-operation.ts): its
 * result statement's columns (read from the statement itself), `{ ok }` for a write without one,
 * nothing for a read without one; an operation that records a proposal adds the proposal's
 * fields to its single row (or alone), and nests a list under `rows`.
 */
function operationShape(cop: CompiledOperation, db: Database.Database): ResultShape {
  const op = cop.op;
  const fields = op.result ? db.prepare(op.result.sql).columns().map((c) => c.name) : null;
  if (op.proposes) {
    if (fields && op.result?.many) return { kind: "object", fields: [...PROPOSAL_FIELDS, "rows"] };
    return { kind: "rows", many: false, fields: [...new Set([...(fields ?? []), ...PROPOSAL_FIELDS])] };
  }
  if (fields) return { kind: "rows", many: op.result?.many ?? false, fields };
  return cop.writes ? { kind: "rows", many: false, fields: ["ok"] } : { kind: "none" };
}

/**
 * The agent's tools exactly as the evaluator's session offers them in direct mode (the world's
 * standard tools and agent-side operations, then send_message and finish), each with its kind,
 * refusal messages, effects in words and declared result shape.
 */
export function envTools(world: CompiledWorld, state: InitialState): EnvTool[] {
  const db = new Database(state.buffer, { readonly: true });
  try {
    const specs = [...agentToolSpecs(world, "direct"), ...CONVERSATION_TOOLS];
    return specs.map((spec) => {
      const cop = world.operations.get(spec.name);
      const op = cop?.op;
      const base = { name: spec.name, description: spec.description, parameters: spec.parameters };
      if (op) {
        return {
          ...base,
          kind: "operation" as const,
          access: op.access,
          preconditions: op.preconditions.map((p) => ({ id: p.id, message: p.message })),
          effects: effectWords(op, hiddenColumns(world)),
          result: operationShape(cop as CompiledOperation, db),
          proposes: op.proposes?.kind ?? null,
          requires_approval: op.requires_approval?.kind ?? null,
        };
      }
      const std = STANDARD_SHAPES[spec.name];
      return { ...base, kind: std?.kind ?? "conversation", access: null, preconditions: [], effects: std?.effects ?? "", result: std?.result ?? null, proposes: null, requires_approval: null };
    });
  } finally {
    db.close();
  }
}
