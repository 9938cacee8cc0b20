import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { REPO_ROOT } from "../core/repo-root.js";

/**
 * Packages whose version changes what an export contains: schemas and parsing (zod, yaml, the remark
 * stack), generated rows (faker, pure-rand), the database bytes (better-sqlite3 and its SQLite),
 * hashing (canonicalize), diffs, and the graph and model layers that produce the artifacts.
 */
export const SHAPING_PACKAGES = [
  "@faker-js/faker",
  "@langchain/core",
  "@langchain/langgraph",
  "better-sqlite3",
  "canonicalize",
  "langchain",
  "microdiff",
  "pure-rand",
  "remark-frontmatter",
  "remark-gfm",
  "remark-parse",
  "unified",
  "yaml",
  "zod",
] as const;

const NODE_MODULES = new URL("node_modules/", pathToFileURL(`${REPO_ROOT}/`));

/** The installed version of a package, read from its package.json in node_modules; `not installed` when absent. */
export function installedVersion(name: string): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL(`${name}/package.json`, NODE_MODULES), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "not installed";
  }
}

/** SQLite library version compiled into better-sqlite3 (it decides the bytes of every database file). */
export function sqliteVersion(): string {
  const db = new Database(":memory:");
  try {
    return db.prepare("SELECT sqlite_version()").pluck().get() as string;
  } finally {
    db.close();
  }
}

/** Exact versions of every shaping package, plus `sqlite`, for the manifest. */
export function shapingPackageVersions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of SHAPING_PACKAGES) out[name] = installedVersion(name);
  out.sqlite = sqliteVersion();
  return out;
}
