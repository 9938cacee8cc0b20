import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../../pipeline/core/canonical-json.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { validateAgainst } from "../../pipeline/core/schema-issues.js";
import { ReleaseManifest } from "../../pipeline/schemas/index.js";
import { listFolder } from "./list-folder.js";
import { isSafeReleasePath, MANIFEST_FILE } from "./release-layout.js";
import { manifestRootHash } from "./root-hash.js";
import { sqliteProblem } from "./sqlite-file.js";

/** A file of a release that is not what its manifest says, and why. */
export interface FileFailure {
  /** Release-relative path. */
  file: string;
  reason: string;
}

/**
 * The listed files of a release that could be read, as verified. Some are kept in memory; the
 * others (see IntegrityOptions.keep) are read again when asked for and must still have the
 * manifest's sha256, so a release of any size is checked with one file in memory at a time.
 */
export interface ReleaseFiles {
  /** The file's bytes (null-free: undefined when the release does not hold it). Throws RELEASE_CHANGED when a file read again no longer matches the manifest. */
  get(path: string): Buffer | undefined;
  has(path: string): boolean;
  /** Paths in sorted order. */
  keys(): IterableIterator<string>;
}

class VerifiedFiles implements ReleaseFiles {
  constructor(
    private readonly dir: string,
    private readonly expected: Readonly<Record<string, string>>,
    private readonly kept: ReadonlyMap<string, Buffer>,
    private readonly present: ReadonlySet<string>,
  ) {}

  get(path: string): Buffer | undefined {
    const kept = this.kept.get(path);
    if (kept || !this.present.has(path)) return kept;
    const bytes = readFileSync(join(this.dir, path));
    const actual = sha256(bytes);
    if (actual !== this.expected[path]) throw new FoundryError("RELEASE_CHANGED", `changed while the release was read: sha256 ${actual} differs from the manifest's ${this.expected[path]}`, { file: path });
    return bytes;
  }

  has(path: string): boolean {
    return this.present.has(path);
  }

  keys(): IterableIterator<string> {
    return this.present.keys();
  }
}

export interface IntegrityOptions {
  /** Which verified files to keep in memory (default: all). The others are hashed now and read again on demand. */
  keep?: (path: string) => boolean;
}

export interface IntegrityResult {
  manifest: ReleaseManifest | null;
  /** Every listed file that could be read, as verified: the rest of the audit reads only these. */
  contents: ReleaseFiles;
  failures: FileFailure[];
}

function readManifest(dir: string, failures: FileFailure[]): ReleaseManifest | null {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) {
    failures.push({ file: MANIFEST_FILE, reason: "missing: a folder without its manifest is not a release" });
    return null;
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    failures.push({ file: MANIFEST_FILE, reason: `not valid JSON: ${(e as Error).message}` });
    return null;
  }
  const r = validateAgainst(ReleaseManifest, data, { file: MANIFEST_FILE });
  if (!r.ok) {
    for (const i of r.issues) failures.push({ file: MANIFEST_FILE, reason: `does not match the release-manifest schema: ${i.path ? `${i.path}: ` : ""}${i.message}` });
    return null;
  }
  return r.value;
}

/**
 * Check a release folder against its manifest: the manifest parses, its root hash covers its file
 * list, every listed file exists with the listed sha256, no file is there that the manifest does
 * not list, and every SQLite database is whole. Each failure names the file. Reads only.
 */
export function verifyIntegrity(dir: string, opts: IntegrityOptions = {}): IntegrityResult {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new FoundryError("RELEASE_NOT_FOUND", "no such release folder", { file: dir });
  const failures: FileFailure[] = [];
  const kept = new Map<string, Buffer>();
  const present = new Set<string>();
  const manifest = readManifest(dir, failures);
  if (!manifest) return { manifest, contents: new VerifiedFiles(dir, {}, kept, present), failures };

  if (manifestRootHash(manifest.files) !== manifest.root_hash) {
    failures.push({ file: MANIFEST_FILE, reason: "root_hash does not match the canonical JSON of `files`: the manifest was edited" });
  }
  for (const [path, expected] of Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!isSafeReleasePath(path) || path === MANIFEST_FILE) {
      failures.push({ file: path, reason: "the manifest lists a path that cannot be part of a release" });
      continue;
    }
    const abs = join(dir, path);
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      failures.push({ file: path, reason: "listed in the manifest but missing" });
      continue;
    }
    if (!st.isFile()) {
      failures.push({ file: path, reason: "listed in the manifest but not a regular file" });
      continue;
    }
    const bytes = readFileSync(abs);
    const actual = sha256(bytes);
    if (actual !== expected) failures.push({ file: path, reason: `content changed: sha256 ${actual} differs from the manifest's ${expected}` });
    if (path.endsWith(".sqlite")) {
      const problem = sqliteProblem(bytes);
      if (problem) failures.push({ file: path, reason: problem });
    }
    present.add(path);
    // A file that failed its hash is kept whatever `keep` says: a re-read would fail again, and the diff still reads it.
    if (actual !== expected || !opts.keep || opts.keep(path)) kept.set(path, bytes);
  }
  const listing = listFolder(dir);
  for (const path of listing.files) {
    if (path !== MANIFEST_FILE && !(path in manifest.files)) failures.push({ file: path, reason: "not listed in the manifest (extra file)" });
  }
  for (const path of listing.others) failures.push({ file: path, reason: "not a regular file (symbolic link or special file)" });
  failures.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { manifest, contents: new VerifiedFiles(dir, manifest.files, kept, present), failures };
}
