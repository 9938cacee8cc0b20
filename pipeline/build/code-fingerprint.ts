import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { sha256 } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { REPO_ROOT } from "../core/repo-root.js";

/**
 * The repository root whose TypeScript sources are fingerprinted. The compiled JavaScript the CLI
 * runs (build/js/<hash>/, bin/compile.mjs) is named by the content hash of these same files, so
 * keying on the sources keys on what runs, whether tsx or the compiled tree runs them.
 */
export const CODE_ROOT = REPO_ROOT;

/** Folders whose code can shape an artifact; imports outside them (packages, tests) are not followed. */
const CODE_FOLDERS = ["pipeline", "validation"];

// Static and dynamic imports and re-exports of a relative specifier. Type-only imports are skipped:
// they are erased before the code runs, so they cannot change what a stage computes.
const IMPORT = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  const candidates = spec.endsWith(".js") ? [`${base.slice(0, -3)}.ts`, base] : [base, `${base}.ts`, join(base, "index.ts")];
  return candidates.find((c) => existsSync(c)) ?? null;
}

function insideCode(root: string, file: string): boolean {
  const rel = relative(root, file);
  return CODE_FOLDERS.some((f) => rel === f || rel.startsWith(`${f}${sep}`));
}

/** Files a module runs, its own included: the transitive closure of its relative runtime imports under pipeline/ and validation/, as sorted root-relative POSIX paths. */
export function importClosure(entries: readonly string[], root: string = CODE_ROOT): string[] {
  const seen = new Set<string>();
  const todo = entries.map((e) => resolve(root, e));
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (seen.has(file)) continue;
    if (!existsSync(file)) throw new FoundryError("CODE_MISSING", "a module of the pipeline cannot be read for its code fingerprint", { file: relative(root, file) });
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT)) {
      if (m[1]) continue;
      const spec = m[2] ?? m[3];
      if (!spec) continue;
      const target = resolveImport(file, spec);
      if (!target) throw new FoundryError("CODE_MISSING", `import ${spec} does not resolve to a file`, { file: relative(root, file) }, spec);
      if (insideCode(root, target) && !seen.has(target)) todo.push(target);
    }
  }
  return [...seen].map((f) => relative(root, f).split(sep).join("/")).sort();
}

const memo = new Map<string, string>();

/**
 * sha256 over the path and content hash of every file in the import closure of `entries`: any
 * edit to code a stage runs changes it, an edit elsewhere does not. Computed once per process for
 * each root and entry list (the code does not change while a build runs).
 */
export function codeFingerprint(entries: readonly string[], root: string = CODE_ROOT): string {
  const key = `${root}\0${[...entries].sort().join("\0")}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const files = importClosure(entries, root);
  const value = sha256(files.map((f) => `${f}\0${sha256(readFileSync(join(root, f)))}`).join("\n"));
  memo.set(key, value);
  return value;
}

/** Forget memoized fingerprints (tests that edit a copy of the tree between two builds). */
export function clearCodeFingerprints(): void {
  memo.clear();
}
