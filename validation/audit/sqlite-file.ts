import Database from "better-sqlite3";

const MAGIC = "SQLite format 3\u0000";

/**
 * Why `bytes` are not one whole, sound SQLite database, or null when they are. The header is read
 * first, so a truncated file is named as truncated (with the sizes) rather than as "malformed";
 * then a private in-memory copy is opened from the buffer and `PRAGMA integrity_check` runs on it.
 * The file itself is never opened, so nothing can be written to it.
 */
export function sqliteProblem(bytes: Buffer): string | null {
  if (bytes.length < 100) return `not an SQLite database: ${bytes.length} bytes, shorter than the 100-byte header`;
  if (bytes.subarray(0, 16).toString("latin1") !== MAGIC) return "not an SQLite database: the header does not start with \"SQLite format 3\"";
  const raw = bytes.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return `corrupt SQLite header: page size ${raw}`;
  const pages = bytes.readUInt32BE(28);
  // The in-header page count is only authoritative when "version-valid-for" equals the change counter.
  const countValid = pages > 0 && bytes.readUInt32BE(92) === bytes.readUInt32BE(24);
  if (countValid && bytes.length !== pages * pageSize) {
    const expected = pages * pageSize;
    return bytes.length < expected
      ? `truncated SQLite database: ${bytes.length} bytes, the header declares ${pages} pages of ${pageSize} bytes (${expected} bytes)`
      : `SQLite database has ${bytes.length - expected} bytes past the ${pages} pages its header declares`;
  }
  if (bytes.length % pageSize !== 0) return `truncated SQLite database: ${bytes.length} bytes is not a whole number of ${pageSize}-byte pages`;
  let db: Database.Database | undefined;
  try {
    db = new Database(bytes);
    const rows = db.pragma("integrity_check") as Array<{ integrity_check: string }>;
    const messages = rows.map((r) => r.integrity_check);
    if (messages.length !== 1 || messages[0] !== "ok") return `SQLite integrity_check failed: ${messages.slice(0, 3).join("; ")}`;
    return null;
  } catch (e) {
    return `SQLite database cannot be opened: ${(e as Error).message}`;
  } finally {
    if (db?.open) db.close();
  }
}
