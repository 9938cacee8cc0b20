import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { FoundryError, type FoundryIssue } from "./errors.js";
import { parseYaml } from "./yaml-source.js";
import { validateAgainst } from "./schema-issues.js";

/** Agent roles; each can run deterministically or with its own model. */
export const AGENT_ROLES = [
  "sop-extractor",
  "environment-builder",
  "task-designer",
  "rubric-writer",
  "solver",
  "verifier",
  "repairer",
  "calibrator",
  "user-sim",
  "env-sim",
] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

/** `provider:model`, e.g. `openai:gpt-4.1`, `ollama:qwen3`; or `deterministic`. */
export const ModelSpec = z
  .string()
  .regex(/^(deterministic|[a-z][a-z0-9_-]*:[^\s]+)$/, "must be `deterministic` or `provider:model` (e.g. `openai:gpt-4.1`)");

export const FoundryConfig = z
  .object({
    model: ModelSpec.default("deterministic").describe("Model for every agent role unless overridden per role."),
    models: z.partialRecord(z.enum(AGENT_ROLES), ModelSpec).default({}).describe("Per-role model, e.g. { \"user-sim\": \"ollama:qwen3\" }."),
    base_url: z.string().url().nullable().default(null).describe("OpenAI-compatible base URL for a local server."),
    seed: z.number().int().min(0).nullable().default(null).describe("Overrides every domain card's seed when set."),
    concurrency: z.number().int().min(1).max(64).default(4).describe("Model calls in flight per provider."),
    rate_interval_ms: z.number().int().min(0).default(0).describe("Rate-limit interval of the provider queue (0: none)."),
    max_retries: z.number().int().min(0).max(10).default(3).describe("Retries for 429, 5xx, timeouts and invalid structured output."),
    timeout_ms: z.number().int().min(100).default(60_000).describe("Time bound of one model call."),
    temperature: z.number().min(0).max(2).default(0).describe("Sampling temperature of every model."),
    structured_output: z.enum(["native", "prompt"]).default("native").describe("native: the provider's structured output (JSON schema or a tool, via withStructuredOutput); prompt: the schema in the prompt only, for servers without it."),
    num_ctx: z.number().int().min(512).nullable().default(null).describe("Context window of ollama: models (Ollama's num_ctx); null: the server's default."),
    cache_dir: z.string().default("generated/cache").describe("Where the response and parse caches live."),
    sql_time_limit_ms: z.number().int().min(1).max(86_400_000).default(1000).describe("Time bound of one SQL statement an agent or a world runs (milliseconds); past it the statement is interrupted."),
    sql_max_length: z.number().int().min(1000).max(1_000_000_000).default(1_000_000).describe("Largest string, blob or row an SQL statement may produce (bytes; SQLITE_LIMIT_LENGTH)."),
    backend: z.enum(["embedded", "postgres"]).default("embedded").describe("embedded: SQLite checkpoints, response cache and results in this process; postgres: LangGraph's Postgres checkpointer, a pg-boss job queue worked by `synth worker` processes, results and the response cache in the database at database_url."),
    database_url: z.string().min(1).nullable().default(null).describe("PostgreSQL connection URL of the postgres backend (postgres://user:password@host:port/database, or ?host=/socket/dir). Never stored in run records; printed without its password."),
    lease_seconds: z.number().int().min(2).max(86_400).default(900).describe("postgres backend: how long a worker holds an item before it is given to another worker (a killed worker's items come back after this)."),
    item_retries: z.number().int().min(0).max(10).default(2).describe("postgres backend: retries of a queue item that failed or whose lease expired, with exponential backoff, before it is marked failed."),
  })
  .strict();
export type FoundryConfig = z.infer<typeof FoundryConfig>;

type Layer = Record<string, unknown>;

/** Environment variables the configuration reads (documented in the README). */
export function configFromEnv(env: NodeJS.ProcessEnv): Layer {
  const out: Layer = {};
  if (env.FOUNDRY_MODEL) out.model = env.FOUNDRY_MODEL;
  if (env.FOUNDRY_SEED) out.seed = Number(env.FOUNDRY_SEED);
  if (env.FOUNDRY_CONCURRENCY) out.concurrency = Number(env.FOUNDRY_CONCURRENCY);
  if (env.FOUNDRY_CACHE_DIR) out.cache_dir = env.FOUNDRY_CACHE_DIR;
  if (env.FOUNDRY_SQL_TIME_LIMIT_MS) out.sql_time_limit_ms = Number(env.FOUNDRY_SQL_TIME_LIMIT_MS);
  if (env.FOUNDRY_SQL_MAX_LENGTH) out.sql_max_length = Number(env.FOUNDRY_SQL_MAX_LENGTH);
  if (env.FOUNDRY_BACKEND) out.backend = env.FOUNDRY_BACKEND;
  if (env.FOUNDRY_DATABASE_URL) out.database_url = env.FOUNDRY_DATABASE_URL;
  const base = env.FOUNDRY_BASE_URL ?? env.OPENAI_BASE_URL;
  if (base) out.base_url = base;
  const models: Record<string, string> = {};
  for (const role of AGENT_ROLES) {
    const v = env[`FOUNDRY_MODEL_${role.toUpperCase().replace(/-/g, "_")}`];
    if (v) models[role] = v;
  }
  if (Object.keys(models).length) out.models = models;
  return out;
}

/** Parse `--model-for role=provider:model` values into a per-role map; bad roles are usage errors. */
export function parseModelFor(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf("=");
    const role = eq > 0 ? v.slice(0, eq) : "";
    if (!(AGENT_ROLES as readonly string[]).includes(role)) {
      throw new FoundryError("USAGE", `--model-for expects ROLE=provider:model with ROLE one of ${AGENT_ROLES.join(", ")}`, { path: "--model-for" }, v);
    }
    out[role] = v.slice(eq + 1);
  }
  return out;
}

function readConfigFile(file: string): { layer: Layer; lineOf?: (p: ReadonlyArray<PropertyKey>) => number | undefined } {
  const parsed = parseYaml(readFileSync(file, "utf8"), file);
  if (!parsed.source) throw new FoundryError("CONFIG_SYNTAX", parsed.issues[0]?.message ?? "unreadable config", { file, line: parsed.issues[0]?.line });
  const data = parsed.source.data ?? {};
  if (typeof data !== "object" || Array.isArray(data)) throw new FoundryError("CONFIG_INVALID", "config file must be a mapping", { file }, data);
  return { layer: data as Layer, lineOf: parsed.source.lineOf };
}

/**
 * Resolve the configuration: CLI flags > environment > config file > defaults. Every layer is
 * validated; the first bad value is reported with where it came from and the value itself.
 */
export function resolveConfig(opts: { flags?: Layer; env?: NodeJS.ProcessEnv; configFile?: string | null; cwd?: string } = {}): FoundryConfig {
  const env = opts.env ?? process.env;
  const explicitFile = opts.configFile ?? env.FOUNDRY_CONFIG ?? null;
  const defaultFile = `${opts.cwd ?? process.cwd()}/foundry.config.yaml`;
  const file = explicitFile ?? (existsSync(defaultFile) ? defaultFile : null);
  if (explicitFile && !existsSync(explicitFile)) throw new FoundryError("CONFIG_MISSING", "config file not found", { file: explicitFile });
  const fileLayer = file ? readConfigFile(file) : { layer: {} };
  const envLayer = configFromEnv(env);
  const flagLayer = opts.flags ?? {};
  const partial = FoundryConfig.partial();
  const layers: Array<[string, Layer, ((p: ReadonlyArray<PropertyKey>) => number | undefined) | undefined]> = [
    [file ?? "config file", fileLayer.layer, fileLayer.lineOf],
    ["environment", envLayer, undefined],
    ["command line", flagLayer, undefined],
  ];
  for (const [where, layer, lineOf] of layers) {
    const r = validateAgainst(partial, layer, { file: where, code: "CONFIG_INVALID", lineOf });
    if (!r.ok) throw configError(r.issues[0] as FoundryIssue);
  }
  const merged: Layer = { ...fileLayer.layer, ...envLayer, ...flagLayer };
  merged.models = { ...((fileLayer.layer.models as Layer) ?? {}), ...((envLayer.models as Layer) ?? {}), ...((flagLayer.models as Layer) ?? {}) };
  const r = validateAgainst(FoundryConfig, merged, { code: "CONFIG_INVALID" });
  if (!r.ok) throw configError(r.issues[0] as FoundryIssue);
  return r.value;
}

function configError(issue: FoundryIssue): FoundryError {
  return new FoundryError(issue.code, issue.message, { file: issue.file, line: issue.line, path: issue.path }, issue.value);
}

/** The model an agent role uses under this configuration. */
export function modelFor(config: FoundryConfig, role: AgentRole): string {
  return config.models[role] ?? config.model;
}
