import type Database from "better-sqlite3";
import { canonicalJsonFast, sha256Hex } from "./canonical-order.js";
import { PROPOSALS_TABLE } from "./schema-sql.js";

/**
 * Proposals and approvals, kept in the built-in `_proposals` table so they are part of the state
 * (rolled back with a failed call, copied with the database, visible as row changes). A proposal
 * binds to the exact values of its terms: approving 5,000 does not cover 5,500.
 */

export interface ProposalRow {
  proposal_id: string;
  kind: string;
  operation: string;
  terms_json: string;
  terms_hash: string;
  status: "pending" | "approved" | "consumed";
  created_at: number;
  approved_at: number | null;
  consumed_at: number | null;
  actor: string;
  approved_by: string | null;
}

/** The term values of a call: each named parameter's value (null when left out), keys in canonical order. */
export function termsOf(terms: readonly string[], args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of [...terms].sort()) out[t] = args[t] ?? null;
  return out;
}

/** Canonical JSON of the terms and its sha256: equal values give equal hashes, whatever the key order. */
export function encodeTerms(terms: Record<string, unknown>): { json: string; hash: string } {
  const json = canonicalJsonFast(terms);
  return { json, hash: sha256Hex(json) };
}

/**
 * The `_proposals` statements of one connection. Writes happen inside the call's savepoint; an
 * approval that finds no pending proposal reports it (false) so the call can be rejected and rolled
 * back, which keeps the common path to one statement.
 */
export class ProposalStore {
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #approve: Database.Statement;
  readonly #findApproved: Database.Statement;
  readonly #consume: Database.Statement;

  constructor(db: Database.Database) {
    const t = PROPOSALS_TABLE;
    // The id counts the episode's proposals (`PR-0001`, ...), so it is deterministic and rolls back with a failed call.
    this.#insert = db
      .prepare(
        `INSERT INTO ${t} (proposal_id, kind, operation, terms_json, terms_hash, status, created_at, actor) ` +
          `VALUES ('PR-' || printf('%04d', (SELECT count(*) FROM ${t}) + 1), ?, ?, ?, ?, 'pending', ?, ?) RETURNING proposal_id`,
      )
      .pluck();
    this.#get = db.prepare(`SELECT * FROM ${t} WHERE proposal_id = ?`);
    this.#approve = db.prepare(`UPDATE ${t} SET status = 'approved', approved_at = ?, approved_by = ? WHERE proposal_id = ? AND kind = ? AND status = 'pending'`);
    this.#findApproved = db.prepare(`SELECT proposal_id FROM ${t} WHERE kind = ? AND terms_hash = ? AND status = 'approved' ORDER BY created_at, proposal_id LIMIT 1`).pluck();
    this.#consume = db.prepare(`UPDATE ${t} SET status = 'consumed', consumed_at = ? WHERE proposal_id = ?`);
  }

  /** Record a pending proposal of exactly these terms; returns its id. */
  propose(kind: string, operation: string, terms: Record<string, unknown>, now: number, actor: string): string {
    const { json, hash } = encodeTerms(terms);
    return this.#insert.get(kind, operation, json, hash, now, actor) as string;
  }

  get(id: string): ProposalRow | undefined {
    return this.#get.get(id) as ProposalRow | undefined;
  }

  /** Approve a pending proposal of `kind`; false when there is none with that id, kind and status. */
  approve(id: string, kind: string, now: number, actor: string): boolean {
    return this.#approve.run(now, actor, id, kind).changes === 1;
  }

  /** The oldest approved, unused proposal of `kind` with exactly these terms, or undefined. */
  findApproved(kind: string, terms: Record<string, unknown>): string | undefined {
    return this.#findApproved.get(kind, encodeTerms(terms).hash) as string | undefined;
  }

  /** Mark a proposal used up. */
  consume(id: string, now: number): void {
    this.#consume.run(now, id);
  }
}
