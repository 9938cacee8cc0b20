import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { sha256 } from "../../core/canonical-json.js";
import { FoundryError } from "../../core/errors.js";
import { SCHEMA } from "./schema.js";
import type { Database } from "./database.js";

/** A folder as stored: relative POSIX path → sha256 of its bytes. */
export type FileSet = Record<string, string>;

/** Every file under `dir` (recursively, sorted), read into memory. */
export function readFolder(dir: string, skip: (rel: string) => boolean = () => false): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p).split(sep).join("/");
      if (skip(rel)) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out.set(rel, readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

/** Store files content-addressed (a blob already there is not sent again); returns the file set. */
export async function putFiles(db: Database, files: ReadonlyMap<string, Buffer>): Promise<FileSet> {
  const set: FileSet = {};
  const byHash = new Map<string, Buffer>();
  for (const [rel, bytes] of files) {
    const h = sha256(bytes);
    set[rel] = h;
    byHash.set(h, bytes);
  }
  const hashes = [...byHash.keys()];
  const present = new Set((await db.query<{ sha256: string }>(`SELECT sha256 FROM ${SCHEMA}.blobs WHERE sha256 = ANY($1)`, [hashes], "storing files")).map((r) => r.sha256));
  const missing = hashes.filter((h) => !present.has(h));
  for (let i = 0; i < missing.length; i += 100) {
    const batch = missing.slice(i, i + 100);
    await db.query(`INSERT INTO ${SCHEMA}.blobs (sha256, bytes) SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (sha256) DO NOTHING`, [batch, batch.map((h) => byHash.get(h))], "storing files");
  }
  return set;
}

/** Whether `dir` holds every file of `set` with its bytes. */
function complete(set: FileSet, dir: string): boolean {
  return Object.entries(set).every(([rel, h]) => {
    const p = join(dir, rel);
    return existsSync(p) && sha256(readFileSync(p)) === h;
  });
}

/**
 * Write a stored file set as folder `dir`, each file checked against its sha256. The folder is
 * built apart and renamed into place whole, so workers sharing a cache folder never see one half
 * written (a folder already complete is used as it is). Returns `dir`.
 */
export async function materialize(db: Database, set: FileSet, dir: string): Promise<string> {
  if (existsSync(dir) && complete(set, dir)) return dir;
  const hashes = [...new Set(Object.values(set))];
  const rows = await db.query<{ sha256: string; bytes: Buffer }>(`SELECT sha256, bytes FROM ${SCHEMA}.blobs WHERE sha256 = ANY($1)`, [hashes], "reading stored files");
  const blobs = new Map(rows.map((r) => [r.sha256, r.bytes]));
  const staging = `${dir}.partial-${process.pid}-${randomBytes(3).toString("hex")}`;
  try {
    for (const [rel, h] of Object.entries(set)) {
      const bytes = blobs.get(h);
      if (!bytes || sha256(bytes) !== h) throw new FoundryError("DATABASE_BLOB_MISSING", `the stored file ${rel} (sha256 ${h}) is missing or damaged in the database`, { file: rel }, h);
      const p = join(staging, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, bytes);
    }
    mkdirSync(dirname(dir), { recursive: true });
    // A damaged or partial folder left by an older run is replaced; a complete one another worker just renamed is kept.
    if (existsSync(dir) && !complete(set, dir)) rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(staging, dir);
    } catch (e) {
      if (!existsSync(dir) || !complete(set, dir)) throw e;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}
