import type { CompiledOperation, CompiledWorld } from "./compile-world.js";
import type { EpisodeConnection } from "./connection.js";
import type { RowChange, ToolCall, ToolOutcome } from "./types.js";
import { parseArgs } from "./args.js";
import { termsOf } from "./approvals.js";
import { canonicalJson } from "../core/canonical-json.js";
import { worldSqlProblem } from "./world-sql-limits.js";

/**
 * One call of a world operation: arguments, preconditions, approvals, then effects, approval
 * bookkeeping and the result view in a single transaction. Agent input reaches SQL only as bound
 * parameters. A rejected or errored call changes nothing. A world statement stopped by the SQL
 * bounds (time, size, wall clock) throws its named problem (world-sql-limits.ts): a defect of the
 * world, not of the call.
 */

export interface CallContext {
  conn: EpisodeConnection;
  world: CompiledWorld;
  /** Logical minute of the call (`:now`). */
  now: number;
  /** Trace index the call's event gets (`:call`). */
  index: number;
}

/** An errored outcome: what the caller sees is `{ error: { code, message, field? } }`. */
export function errored(code: string, message: string, field?: string): ToolOutcome {
  const error: Record<string, unknown> = { code, message };
  if (field !== undefined) error.field = field;
  return { status: "errored", result: { error }, reason: field !== undefined ? `${field}: ${message}` : message, changes: [] };
}

function rejected(code: string, message: string, reason: string, extra: Record<string, unknown> = {}): ToolOutcome {
  return { status: "rejected", result: { error: { code, message, ...extra } }, reason, changes: [] };
}

/** SQLite truthiness of a precondition's first column (no row is false). */
function holds(v: unknown): boolean {
  return v !== undefined && v !== null && v !== 0 && v !== "" && v !== "0" && v !== false;
}

/**
 * Named parameters of a call. better-sqlite3 binds every JS number as a REAL, so whole numbers that
 * are integers in meaning (integer params, `:now`, `:call`) are bound as BigInt: `'Q-' || :call`
 * must give `Q-8`, not `Q-8.0`.
 */
function bindingOf(cop: CompiledOperation, args: Record<string, unknown>, call: ToolCall, ctx: CallContext): Record<string, unknown> {
  // Built key by key in a fixed order: spreading a prebuilt object of nulls measured ~25× slower.
  const bind: Record<string, unknown> = {};
  const names = cop.paramNames;
  for (let i = 0; i < names.length; i++) {
    const k = names[i] as string;
    const v = args[k];
    bind[k] = v === undefined ? null : typeof v === "boolean" ? (v ? 1n : 0n) : typeof v === "number" && cop.integerParams.has(k) ? BigInt(v) : Array.isArray(v) ? JSON.stringify(v) : v;
  }
  bind.now = BigInt(ctx.now);
  bind.actor = call.actor;
  bind.call = BigInt(ctx.index);
  return bind;
}

/** Execute one operation call. Exceptions from SQLite propagate (the episode turns them into errored outcomes). */
export function runOperation(cop: CompiledOperation, call: ToolCall, ctx: CallContext): ToolOutcome {
  const { op } = cop;
  if (op.side !== call.actor) {
    const what = op.side === "customer" ? "a customer-side action" : "an agent-side tool";
    return errored("not_permitted", `${op.name} is ${what}; the ${call.actor} cannot call it`);
  }
  const parsed = parseArgs(cop.args, call.args);
  if (!parsed.ok) return errored(parsed.error.code, parsed.error.message, parsed.error.field);
  const args = parsed.value;
  const bind = bindingOf(cop, args, call, ctx);
  const { conn } = ctx;

  for (let i = 0; i < op.preconditions.length; i++) {
    const pc = op.preconditions[i] as (typeof op.preconditions)[number];
    let row: unknown[] | undefined;
    try {
      row = conn.rawStatement(pc.sql).get(bind) as unknown[] | undefined;
    } catch (e) {
      throw worldSqlProblem(e, statementAt(ctx, cop, `precondition "${pc.id}"`, `preconditions[${i}]`), pc.sql, conn.limits) ?? e;
    }
    if (!holds(row?.[0])) return rejected("precondition_failed", pc.message, `${pc.id}: ${pc.message}`, { precondition: pc.id });
  }

  if (op.approves !== undefined && ctx.world.customerKinds.has(op.approves) && call.actor !== "customer") {
    return rejected("not_permitted", `only the customer may approve ${op.approves} proposals`, `not_permitted: ${op.approves}`);
  }
  // The approval a call needs is looked up before anything runs: without it the call is rejected,
  // even if its effects would also have failed.
  let consumedId: string | undefined;
  if (op.requires_approval) {
    const { kind } = op.requires_approval;
    const terms = termsOf(op.requires_approval.terms, args);
    consumedId = conn.proposals.findApproved(kind, terms);
    if (consumedId === undefined) {
      const t = canonicalJson(terms);
      return rejected("approval_required", `no approved ${kind} proposal with terms ${t}`, `approval_required: ${kind} ${t}`, { kind, terms });
    }
  }
  const input: Apply = { cop, call, ctx, bind, args, consumedId };
  let out: Applied;
  try {
    out = cop.writes ? conn.write(apply, input) : apply(input);
  } catch (e) {
    // A rejection found inside the savepoint: it was rolled back, nothing changed.
    if (e instanceof Rejection) return e.outcome;
    throw e;
  }
  const outcome: ToolOutcome = { status: "executed", result: out.result, changes: out.changes };
  if (out.proposalId !== undefined) outcome.proposal_id = out.proposalId;
  return outcome;
}

/** Thrown inside the call's savepoint to reject the call and roll back what it did so far. */
class Rejection extends Error {
  constructor(readonly outcome: ToolOutcome) {
    super(outcome.reason);
  }
}

interface Apply {
  cop: CompiledOperation;
  call: ToolCall;
  ctx: CallContext;
  bind: Record<string, unknown>;
  args: Record<string, unknown>;
  /** Approved proposal the call uses up. */
  consumedId: string | undefined;
}

interface Applied {
  result: unknown;
  changes: RowChange[];
  /** Proposal recorded, approved or consumed. */
  proposalId: string | undefined;
}

/** Why an approval did not go through, from the proposal as it stands. */
function approvalRejection(ctx: CallContext, id: string, kind: string): ToolOutcome {
  const p = ctx.conn.proposals.get(id);
  if (!p) return rejected("proposal_not_found", `no proposal "${id}"`, `proposal_not_found: ${id}`);
  if (p.kind !== kind) return rejected("proposal_wrong_kind", `proposal "${id}" is a ${p.kind} proposal, not ${kind}`, `proposal_wrong_kind: ${id}`);
  return rejected("proposal_not_pending", `proposal "${id}" is already ${p.status}`, `proposal_not_pending: ${id} is ${p.status}`);
}

/**
 * The part of a call that changes state, in order: approve the named proposal, run the effects, use
 * up the approval, record a new proposal, read the result view, take the changes.
 */
function apply({ cop, call, ctx, bind, args, consumedId }: Apply): Applied {
  const { op } = cop;
  const { conn } = ctx;
  let proposalId: string | undefined;
  if (op.approves !== undefined) {
    proposalId = String(args.proposal_id);
    if (!conn.proposals.approve(proposalId, op.approves, ctx.now, call.actor)) throw new Rejection(approvalRejection(ctx, proposalId, op.approves));
  }
  for (let i = 0; i < op.effects.length; i++) {
    const sql = (op.effects[i] as (typeof op.effects)[number]).sql;
    try {
      conn.statement(sql).run(bind);
    } catch (e) {
      throw worldSqlProblem(e, statementAt(ctx, cop, `effect ${i + 1}`, `effects[${i}]`), sql, conn.limits) ?? e;
    }
  }
  if (consumedId !== undefined) {
    conn.proposals.consume(consumedId, ctx.now);
    proposalId = consumedId;
  }
  let terms: Record<string, unknown> | undefined;
  if (op.proposes) {
    terms = termsOf(op.proposes.terms, args);
    proposalId = conn.proposals.propose(op.proposes.kind, op.name, terms, ctx.now, call.actor);
  }
  let view: unknown;
  if (op.result) {
    try {
      const stmt = conn.statement(op.result.sql);
      view = op.result.many ? stmt.all(bind) : (stmt.get(bind) ?? null);
      if (op.result.json && op.result.json.length > 0) view = parseJsonColumns(view, op.result.json);
    } catch (e) {
      throw worldSqlProblem(e, statementAt(ctx, cop, "result", "result"), op.result.sql, conn.limits) ?? e;
    }
  }
  let result: unknown = view === undefined ? (cop.writes ? { ok: true } : null) : view;
  if (op.proposes && proposalId !== undefined) result = merge(view, { proposal_id: proposalId, kind: op.proposes.kind, terms, status: "pending" });
  else if (op.approves !== undefined && proposalId !== undefined) result = merge(view, { proposal_id: proposalId, kind: op.approves, status: "approved" });
  const changes = cop.writes ? conn.takeChanges() : [];
  return { result, changes, proposalId };
}

/** Result columns declared as JSON text come back parsed (a list or an object), not as strings. */
function parseJsonColumns(view: unknown, columns: readonly string[]): unknown {
  const fix = (row: unknown): unknown => {
    if (row === null || typeof row !== "object") return row;
    const out = { ...(row as Record<string, unknown>) };
    for (const c of columns) if (typeof out[c] === "string") out[c] = JSON.parse(out[c] as string);
    return out;
  };
  return Array.isArray(view) ? view.map(fix) : fix(view);
}

/** Proposal or approval fields on top of the result view (a single row is merged, a list nested). */
function merge(view: unknown, fields: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(view)) return { ...fields, rows: view };
  if (view !== null && typeof view === "object") return { ...(view as Record<string, unknown>), ...fields };
  return fields;
}

/** A statement of an operation, named for a world problem: `operation "x" precondition "p"` at `operations[3].preconditions[0].sql`. */
function statementAt(ctx: CallContext, cop: CompiledOperation, what: string, field: string): { what: string; path: string } {
  const index = ctx.world.world.operations.indexOf(cop.op);
  return { what: `operation "${cop.op.name}" ${what}`, path: `operations[${index}].${field}.sql` };
}
