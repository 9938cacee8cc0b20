import { FoundryError } from "../../core/errors.js";
import type { Database } from "./database.js";

/** Version of the foundry schema's layout; a database holding a newer one is refused. */
export const SCHEMA_VERSION = 1;

/** The schema holding everything but the queue (pg-boss keeps its own, `pgboss`) and the checkpoints (`foundry_checkpoints`). */
export const SCHEMA = "foundry";

const DDL = `
CREATE SCHEMA IF NOT EXISTS ${SCHEMA};
CREATE TABLE IF NOT EXISTS ${SCHEMA}.meta (key text PRIMARY KEY, value text NOT NULL);
-- Files workers need (release files, domain inputs), content-addressed.
CREATE TABLE IF NOT EXISTS ${SCHEMA}.blobs (sha256 text PRIMARY KEY, bytes bytea NOT NULL);
-- One row per evaluation or build input set: what a worker needs to run its items.
CREATE TABLE IF NOT EXISTS ${SCHEMA}.work (key text PRIMARY KEY, kind text NOT NULL, spec jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
-- One row per finished item, written once (keyed by the item's idempotency key).
CREATE TABLE IF NOT EXISTS ${SCHEMA}.results (key text PRIMARY KEY, parent text NOT NULL, item text NOT NULL, value text NOT NULL, attachment text, worker text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX IF NOT EXISTS results_parent ON ${SCHEMA}.results (parent);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.workers (id text PRIMARY KEY, host text NOT NULL, pid integer NOT NULL, code text NOT NULL, started_at timestamptz NOT NULL DEFAULT now(), last_seen timestamptz NOT NULL DEFAULT now(), stopped_at timestamptz);
-- Every time a worker took an item: who, when, how it ended (queue status per worker).
CREATE TABLE IF NOT EXISTS ${SCHEMA}.attempts (id bigserial PRIMARY KEY, job_id uuid NOT NULL, queue text NOT NULL, item_key text NOT NULL, worker text NOT NULL, started_at timestamptz NOT NULL DEFAULT now(), ended_at timestamptz, outcome text, message text);
CREATE INDEX IF NOT EXISTS attempts_job ON ${SCHEMA}.attempts (job_id);
-- The LLM response cache (the same rows as llm-cache.sqlite).
CREATE TABLE IF NOT EXISTS ${SCHEMA}.responses (key text PRIMARY KEY, format integer NOT NULL, model text NOT NULL, request text NOT NULL, response text NOT NULL);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.llm_messages (hash text PRIMARY KEY, json text NOT NULL);
-- Output folders being written by a coordinator (evaluate), so two never interleave.
CREATE TABLE IF NOT EXISTS ${SCHEMA}.outputs (output text PRIMARY KEY, holder text NOT NULL, since timestamptz NOT NULL DEFAULT now());
`;

/** Create the foundry schema when missing (idempotent, one process at a time); refuse a newer layout. */
export async function ensureSchema(db: Database): Promise<void> {
  await db.transaction("creating the foundry schema", async (c) => {
    await c.query("SELECT pg_advisory_xact_lock(hashtext('foundry-schema'))");
    await c.query(DDL);
    await c.query(`INSERT INTO ${SCHEMA}.meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO NOTHING`, [String(SCHEMA_VERSION)]);
    const v = Number((await c.query(`SELECT value FROM ${SCHEMA}.meta WHERE key = 'schema_version'`)).rows[0]?.value);
    if (v > SCHEMA_VERSION) throw new FoundryError("DATABASE_SCHEMA_NEWER", `the database at ${db.shown} holds foundry schema version ${v}; this synth knows version ${SCHEMA_VERSION}: upgrade synth`, { path: "--database-url" }, v);
  });
}

/** Refuse, before any work, a database that holds no foundry schema (for commands that only read it). */
export async function requireSchema(db: Database): Promise<void> {
  const rows = await db.query<{ t: string | null; q: string | null }>("SELECT to_regclass($1) AS t, to_regclass('pgboss.job') AS q", [`${SCHEMA}.results`]);
  if (!rows[0]?.t || !rows[0]?.q) {
    throw new FoundryError("DATABASE_SCHEMA_MISSING", `the database at ${db.shown} has no foundry schema (${SCHEMA}.*, pgboss.*): nothing was ever enqueued there; run synth evaluate or synth build with --backend postgres first, or check --database-url`, { path: "--database-url" }, db.shown);
  }
}
