import type { Command } from "commander";
import { FoundryError, quote } from "../core/errors.js";

/** The flags every command that runs or inspects work takes to pick its backend. */
export interface BackendFlags {
  backend?: string;
  databaseUrl?: string;
}

/** Add `--backend` and `--database-url` to a command. */
export function withBackendOptions(cmd: Command, backend = true): Command {
  if (backend) cmd.option("--backend <kind>", "embedded (one process, SQLite; the default) | postgres (a shared PostgreSQL worked by `synth worker` processes); env FOUNDRY_BACKEND, config key backend");
  return cmd.option("--database-url <url>", "PostgreSQL URL of the postgres backend, postgres://user:password@host:port/database (env FOUNDRY_DATABASE_URL, config key database_url); printed without its password");
}

/** The configuration layer of these flags; a bad --backend is a usage error quoting it. */
export function backendFlags(o: BackendFlags): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  if (o.backend !== undefined) {
    if (o.backend !== "embedded" && o.backend !== "postgres") throw new FoundryError("USAGE", `--backend expects embedded or postgres, got ${quote(o.backend)}`, { path: "--backend" }, o.backend);
    flags.backend = o.backend;
  }
  if (o.databaseUrl !== undefined) flags.database_url = o.databaseUrl;
  return flags;
}
