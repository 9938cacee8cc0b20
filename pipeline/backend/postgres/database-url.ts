import { FoundryError } from "../../core/errors.js";

/** A database URL as it may be shown: the password replaced by `***`, everything else kept. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    // Not a URL: show only what cannot be a secret (the scheme, when there is one).
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
    return scheme ? `${scheme}…` : "(not a URL)";
  }
}

/**
 * The database URL of the postgres backend, checked before anything connects: it must be set (flag,
 * FOUNDRY_DATABASE_URL or `database_url`) and be a postgres:// or postgresql:// URL. Errors print it
 * without its password.
 */
export function checkDatabaseUrl(url: string | null | undefined): string {
  if (!url) throw new FoundryError("USAGE", "the postgres backend needs a database: give --database-url, set FOUNDRY_DATABASE_URL, or database_url in foundry.config.yaml", { path: "--database-url" });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new FoundryError("USAGE", `--database-url is not a URL: expected postgres://user:password@host:port/database, got ${redactUrl(url)}`, { path: "--database-url" });
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") {
    throw new FoundryError("USAGE", `--database-url must be a postgres:// or postgresql:// URL, got ${redactUrl(url)}`, { path: "--database-url" });
  }
  return url;
}
