import { FoundryError } from "../../core/errors.js";

const SCHEME = /^(postgres|postgresql):\/\//i;

/** A database URL as it may be shown: the password (`user:password@`, `password=`) replaced by `***`, everything else kept. */
export function redactUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
  if (!scheme) return "(not a URL)";
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):[^@/?#]*@/i, "$1:***@").replace(/([?&]password=)[^&#]*/gi, "$1***");
}

/**
 * The database URL of the postgres backend, checked before anything connects: it must be set (flag,
 * FOUNDRY_DATABASE_URL or `database_url`) and be a postgres:// or postgresql:// URL (a Unix socket
 * as `postgresql://user:pw@/db?host=/socket/dir`). Errors print it without its password.
 */
export function checkDatabaseUrl(url: string | null | undefined): string {
  if (!url) throw new FoundryError("USAGE", "the postgres backend needs a database: give --database-url, set FOUNDRY_DATABASE_URL, or database_url in foundry.config.yaml", { path: "--database-url" });
  if (!SCHEME.test(url) || /\s/.test(url)) {
    throw new FoundryError("USAGE", `--database-url must be a postgres:// or postgresql:// URL (postgres://user:password@host:port/database), got ${redactUrl(url)}`, { path: "--database-url" });
  }
  return url;
}
