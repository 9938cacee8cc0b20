import type { CompiledOperation, CompiledWorld } from "./compile-world.js";
import type { EpisodeConnection } from "./connection.js";
import type { RowChange, ToolCall, ToolOutcome } from "./types.js";
import { parseArgs } from "./args.js";
import { termsOf } from "./approvals.js";
import { canonicalJson } from "../core/canonical-json.js";

/**
 * One call of a world operation: arguments, preconditions, approvals, then effects, approval
 * bookkeeping and the result view in a single transaction. Agent input reaches SQL only as bound
 * parameters. A rejected or errored call changes nothing.
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
  const bind: Record<string, unknown> = { ...cop.nullBinding };
  for (const k in args) {
    const v = args[k];
    bind[k] = typeof v === "boolean" ? (v ? 1n : 0n) : typeof v === "number" && cop.integerParams.has(k) ? BigInt(v) : v;
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

  for (const pc of op.preconditions) {
    const row = conn.rawStatement(pc.sql).get(bind) as unknown[] | undefined;
    if (!holds(row?.[0])) return rejected("precondition_failed", pc.message, `${pc.id}: ${pc.message}`, { precondition: pc.id });
  }

  let approvalId: string | undefined;
  if (op.approves !== undefined) {
    approvalId = String(args.proposal_id);
    const p = conn.proposals.get(approvalId);
    if (!p) return rejected("proposal_not_found", `no proposal "${approvalId}"`, `proposal_not_found: ${approvalId}`);
    if (p.kind !== op.approves) return rejected("proposal_wrong_kind", `proposal "${approvalId}" is a ${p.kind} proposal, not ${op.approves}`, `proposal_wrong_kind: ${approvalId}`);
    if (p.status !== "pending") return rejected("proposal_not_pending", `proposal "${approvalId}" is already ${p.status}`, `proposal_not_pending: ${approvalId} is ${p.status}`);
    if (ctx.world.customerKinds.has(op.approves) && call.actor !== "customer") {
      return rejected("not_permitted", `only the customer may approve ${op.approves} proposals`, `not_permitted: ${op.approves}`);
    }
  }
  let consumedId: string | undefined;
  if (op.requires_approval) {
    const terms = termsOf(op.requires_approval.terms, args);
    consumedId = conn.proposals.findApproved(op.requires_approval.kind, terms);
    if (consumedId === undefined) {
      const t = canonicalJson(terms);
      return rejected("approval_required", `no approved ${op.requires_approval.kind} proposal with terms ${t}`, `approval_required: ${op.requires_approval.kind} ${t}`, {
        kind: op.requires_approval.kind,
        terms,
      });
    }
  }

  const out = cop.writes ? conn.write(cop.writeTables, apply, { cop, call, ctx, bind, args, approvalId, consumedId }) : apply({ cop, call, ctx, bind, args, approvalId, consumedId });
  const outcome: ToolOutcome = { status: "executed", result: out.result, changes: out.changes };
  const pid = out.proposalId ?? approvalId ?? consumedId;
  if (pid !== undefined) outcome.proposal_id = pid;
  return outcome;
}

interface Apply {
  cop: CompiledOperation;
  call: ToolCall;
  ctx: CallContext;
  bind: Record<string, unknown>;
  args: Record<string, unknown>;
  approvalId: string | undefined;
  consumedId: string | undefined;
}

/** The part of a call that changes state: effects, approval bookkeeping, result view, captured changes. */
function apply({ cop, call, ctx, bind, args, approvalId, consumedId }: Apply): { result: unknown; changes: RowChange[]; proposalId: string | undefined } {
  const { op } = cop;
  const { conn } = ctx;
  for (const eff of op.effects) conn.statement(eff.sql).run(bind);
  if (consumedId !== undefined) conn.proposals.consume(consumedId, ctx.now);
  if (approvalId !== undefined) conn.proposals.approve(approvalId, ctx.now, call.actor);
  let proposalId: string | undefined;
  let terms: Record<string, unknown> | undefined;
  if (op.proposes) {
    terms = termsOf(op.proposes.terms, args);
    proposalId = conn.proposals.propose(op.proposes.kind, op.name, terms, ctx.now, call.actor);
  }
  let view: unknown;
  if (op.result) {
    const stmt = conn.statement(op.result.sql);
    view = op.result.many ? stmt.all(bind) : (stmt.get(bind) ?? null);
  }
  let result: unknown = view === undefined ? (cop.writes ? { ok: true } : null) : view;
  if (proposalId !== undefined && op.proposes) result = merge(view, { proposal_id: proposalId, kind: op.proposes.kind, terms, status: "pending" });
  if (approvalId !== undefined) result = merge(view, { proposal_id: approvalId, kind: op.approves, status: "approved" });
  const changes = cop.writes ? conn.changes.take() : [];
  return { result, changes, proposalId };
}

/** Proposal or approval fields on top of the result view (a single row is merged, a list nested). */
function merge(view: unknown, fields: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(view)) return { ...fields, rows: view };
  if (view !== null && typeof view === "object") return { ...(view as Record<string, unknown>), ...fields };
  return fields;
}
