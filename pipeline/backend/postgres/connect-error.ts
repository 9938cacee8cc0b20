import { FoundryError } from "../../core/errors.js";
import { redactUrl } from "./database-url.js";

/** SQLSTATEs and socket errors that mean "the database is not there right now" (retry, reconnect). */
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOENT", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);

/** Whether an error is a lost or refused connection (the server restarting, the network), as opposed to a refusal of what was asked. */
export function isConnectionError(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (!err) return false;
  if (typeof err.code === "string" && CONNECTION_CODES.has(err.code)) return true;
  const m = typeof err.message === "string" ? err.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error|terminating connection/i.test(m);
}

/**
 * A failure to reach or use the database as the user should read it: what went wrong (unreachable,
 * wrong password, no such database, permission), with the URL printed without its password.
 */
export function databaseError(e: unknown, url: string, doing: string): FoundryError {
  if (FoundryError.is(e)) return e;
  const err = e as { code?: string; message?: string };
  const where = redactUrl(url);
  const msg = err?.message ?? String(e);
  switch (err?.code) {
    case "28P01":
    case "28000":
      return new FoundryError("DATABASE_AUTH", `${doing}: the database at ${where} refused the credentials (${msg}); check the user and password in --database-url`, { path: "--database-url" }, where);
    case "3D000":
      return new FoundryError("DATABASE_MISSING", `${doing}: ${msg} at ${where}; create it (createdb) or fix the database name in --database-url`, { path: "--database-url" }, where);
    case "3F000":
      return new FoundryError("DATABASE_SCHEMA_MISSING", `${doing}: ${msg} at ${where}`, { path: "--database-url" }, where);
    case "42501":
      return new FoundryError("DATABASE_PERMISSION", `${doing}: permission denied at ${where} (${msg}); the user needs CREATE on the database for the foundry and pgboss schemas`, { path: "--database-url" }, where);
  }
  if (isConnectionError(e)) return new FoundryError("DATABASE_UNREACHABLE", `${doing}: cannot reach the database at ${where} (${err?.code ? `${err.code}: ` : ""}${msg})`, { path: "--database-url" }, where);
  return new FoundryError("DATABASE_ERROR", `${doing}: the database at ${where} answered ${err?.code ? `${err.code}: ` : ""}${msg}`, { path: "--database-url" }, where);
}
