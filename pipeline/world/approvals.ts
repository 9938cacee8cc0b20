import type Database from "better-sqlite3";
import { sha256 } from "../core/canonical-json.js";
import { canonicalJsonFast } from "./canonical-order.js";
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
  return { json, hash: sha256(json) };
}

export class ProposalStore {
  readonly #count: Database.Statement;
  readonly #insert: Database.Statement;
  readonly #get: Database.Statement;
  readonly #approve: Database.Statement;
  readonly #findApproved: Database.Statement;
  readonly #consume: Database.Statement;

  constructor(db: Database.Database) {
    const t = PROPOSALS_TABLE;
    this.#count = db.prepare(`SELECT count(*) FROM ${t}`).pluck();
    this.#insert = db.prepare(
      `INSERT INTO ${t} (proposal_id, kind, operation, terms_json, terms_hash, status, created_at, actor) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`,
    );
    this.#get = db.prepare(`SELECT * FROM ${t} WHERE proposal_id = ?`);
    this.#approve = db.prepare(`UPDATE ${t} SET status = 'approved', approved_at = ?, approved_by = ? WHERE proposal_id = ?`);
    this.#findApproved = db.prepare(`SELECT proposal_id FROM ${t} WHERE kind = ? AND terms_hash = ? AND status = 'approved' ORDER BY created_at, proposal_id LIMIT 1`).pluck();
    this.#consume = db.prepare(`UPDATE ${t} SET status = 'consumed', consumed_at = ? WHERE proposal_id = ?`);
  }

  /** Record a pending proposal; its id (`PR-0001`, ...) counts the episode's proposals, so it is deterministic. */
  propose(kind: string, operation: string, terms: Record<string, unknown>, now: number, actor: string): string {
    const id = `PR-${String((this.#count.get() as number) + 1).padStart(4, "0")}`;
    const { json, hash } = encodeTerms(terms);
    this.#insert.run(id, kind, operation, json, hash, now, actor);
    return id;
  }

  get(id: string): ProposalRow | undefined {
    return this.#get.get(id) as ProposalRow | undefined;
  }

  approve(id: string, now: number, actor: string): void {
    this.#approve.run(now, actor, id);
  }

  /** Oldest approved, unconsumed proposal of `kind` with exactly these terms. */
  findApproved(kind: string, terms: Record<string, unknown>): string | undefined {
    return this.#findApproved.get(kind, encodeTerms(terms).hash) as string | undefined;
  }

  consume(id: string, now: number): void {
    this.#consume.run(now, id);
  }
}
