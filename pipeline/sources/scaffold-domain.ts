import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { FoundryError } from "../core/errors.js";
import { REPO_ROOT } from "../core/repo-root.js";

/**
 * `synth init`: a new domain folder from the templates in `scaffold/`: a card, one document of each
 * kind (policy, procedure, product terms, tool manual, FAQ) with valid front matter, written in the
 * structures the extractor and the world drafter read, and a small world that builds. Each file is
 * a starting point to replace; the folder passes check-sources as it is.
 */

// From the repository root, not from this module: the CLI runs compiled JavaScript from
// build/js/<hash>/ (bin/compile.mjs), which holds no templates.
const TEMPLATES = join(REPO_ROOT, "pipeline", "sources", "scaffold");

function templateFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? templateFiles(join(dir, e.name)) : [join(dir, e.name)])).sort();
}

/** Write the scaffold of domain `id` into `dir` (which must not exist yet); returns the files written, relative to `dir`. */
export function scaffoldDomain(dir: string, id: string, title: string): string[] {
  if (existsSync(dir)) throw new FoundryError("INIT_EXISTS", `${dir} already exists; synth init never writes into an existing folder`, { file: dir });
  if (/[\n{}]/.test(title)) throw new FoundryError("USAGE", "the title must be one line without braces", { path: "--title" }, title);
  const written: string[] = [];
  for (const file of templateFiles(TEMPLATES)) {
    const rel = relative(TEMPLATES, file);
    const text = readFileSync(file, "utf8").replaceAll("{{domain}}", id).replaceAll("{{title}}", title);
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
    written.push(rel.split("\\").join("/"));
  }
  return written;
}
