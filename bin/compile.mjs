#!/usr/bin/env node
// The CLI runs compiled JavaScript, never stale: the TypeScript of pipeline/ and validation/ is
// compiled (esbuild, one file per module, no bundling) into build/js/<hash>/, where <hash> is the
// sha256 of every source file's path and bytes, tsconfig.json, the esbuild version and this
// script. bin/synth.js asks ensureCompiled() for the folder of the sources as they are now: an
// edit changes the hash, so the old folder is simply never used again and the new one is compiled
// on the spot (about a second). `npm ci` runs this script through `prepare`, so the first start
// after an install is already compiled. Run it by hand: `node bin/compile.mjs` (prints the folder).
//
// Finding the hash without reading every file at each start: build/js/sources.json records, per
// file, its size, inode, mtime and ctime (nanoseconds) with its sha256; a file whose stat matches
// keeps its recorded sha256, any other is read and hashed again. ctime cannot be set by a program,
// so an edit always shows (the rule git's index follows).
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Folders whose TypeScript is compiled; `.mjs` files in them (worker bootstraps) are copied as they are. */
export const SOURCE_DIRS = ["pipeline", "validation"];
const SELF = fileURLToPath(import.meta.url);
/** Compiled folders kept besides the one in use: the newest few, and any used in the last week. */
const KEEP_NEWEST = 4;
const KEEP_USED_MS = 7 * 24 * 3600 * 1000;

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** Root-relative POSIX paths of the files compiled or copied, sorted. */
function sourceFiles(root) {
  const out = [];
  for (const dir of SOURCE_DIRS) {
    for (const f of readdirSync(join(root, dir), { recursive: true })) {
      if (f.endsWith(".ts") || f.endsWith(".mjs")) out.push(`${dir}/${f.split(sep).join("/")}`);
    }
  }
  return out.sort();
}

function statKey(file) {
  const s = statSync(file, { bigint: true });
  return `${s.size}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** Content hash of everything that decides the compiled output, using the stat index to skip unchanged files. */
export function sourceHash(root = ROOT) {
  const jsDir = join(root, "build", "js");
  const indexFile = join(jsDir, "sources.json");
  let index = {};
  try {
    index = JSON.parse(readFileSync(indexFile, "utf8")).files ?? {};
  } catch {
    index = {};
  }
  const files = sourceFiles(root);
  const next = {};
  let changed = Object.keys(index).length !== files.length;
  for (const rel of files) {
    const key = statKey(join(root, rel));
    const known = index[rel];
    if (known && known[0] === key) next[rel] = known;
    else {
      next[rel] = [key, sha256(readFileSync(join(root, rel)))];
      changed = true;
    }
  }
  const esbuildVersion = JSON.parse(readFileSync(join(root, "node_modules", "esbuild", "package.json"), "utf8")).version;
  const extras = [`tsconfig.json\0${sha256(readFileSync(join(root, "tsconfig.json")))}`, `esbuild\0${esbuildVersion}`, `compiler\0${sha256(readFileSync(SELF))}`];
  const hash = sha256([...files.map((rel) => `${rel}\0${next[rel][1]}`), ...extras].join("\n"));
  if (changed) {
    try {
      mkdirSync(jsDir, { recursive: true });
      const tmp = `${indexFile}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ files: next }));
      renameSync(tmp, indexFile);
    } catch {
      // A read-only tree: the hash is still right, the next start just hashes again.
    }
  }
  return { hash, files };
}

/** Compile `files` into a fresh folder and move it into place as build/js/<hash>/ (another process may win the race: then its folder is used). */
async function compile(root, hash, files) {
  const { build } = await import("esbuild");
  const jsDir = join(root, "build", "js");
  const target = join(jsDir, hash);
  const tmp = join(jsDir, `.partial-${hash.slice(0, 12)}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  const ts = files.filter((f) => f.endsWith(".ts")).map((f) => join(root, f));
  try {
    await build({ entryPoints: ts, outdir: tmp, outbase: root, format: "esm", platform: "node", target: "node20", bundle: false, logLevel: "silent", tsconfig: join(root, "tsconfig.json") });
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const lines = (e.errors ?? []).map((m) => `${m.location ? `${relative(root, join(root, m.location.file))}:${m.location.line}: ` : ""}${m.text}`);
    throw new Error(`the TypeScript sources do not compile:\n  ${lines.length ? lines.join("\n  ") : e.message}`);
  }
  for (const f of files.filter((x) => x.endsWith(".mjs"))) cpSync(join(root, f), join(tmp, f));
  writeFileSync(join(tmp, "SOURCE_HASH"), `${hash}\n`);
  try {
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(target, "SOURCE_HASH"))) throw e;
  }
  prune(jsDir, hash);
}

/** Remove old compiled folders: all but the newest few, unless one was used in the last week. */
function prune(jsDir, current) {
  const now = Date.now();
  const folders = readdirSync(jsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && /^[0-9a-f]{64}$/.test(d.name) && d.name !== current)
    .map((d) => ({ name: d.name, used: statSync(join(jsDir, d.name)).mtimeMs }))
    .sort((a, b) => b.used - a.used);
  for (const f of folders.slice(KEEP_NEWEST)) if (now - f.used > KEEP_USED_MS) rmSync(join(jsDir, f.name), { recursive: true, force: true });
}

/**
 * The folder holding the compiled JavaScript of the sources as they are now, compiling it first
 * when it does not exist yet. Its modification time records the last use (for pruning).
 */
export async function ensureCompiled(root = ROOT) {
  const { hash, files } = sourceHash(root);
  const dir = join(root, "build", "js", hash);
  if (!existsSync(join(dir, "SOURCE_HASH"))) await compile(root, hash, files);
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // Read-only: pruning just sees an older use.
  }
  return dir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const dir = await ensureCompiled();
    process.stdout.write(`compile: ${relative(process.cwd(), dir) || "."}\n`);
  } catch (e) {
    process.stderr.write(`compile: ${e.message}\n`);
    process.exitCode = 1;
  }
}
