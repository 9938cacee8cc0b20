import { join } from "node:path";
import { FoundryError, type FoundryIssue } from "../core/errors.js";
import { parseYaml } from "../core/yaml-source.js";
import { loadDomain, type LoadedDomain } from "./load-domain.js";
import { extractLoadedSync } from "../sop/extract-loaded.js";
import { parseWorld } from "../world/load-world.js";
import { buildBaseState } from "../world/build-state.js";
import { definedClauses } from "./clause-id.js";

export interface DomainCheck {
  domain: string;
  /** Folder as the user named it. */
  dir: string;
  /** Documents whose front matter validated. */
  documents: number;
  /** .md files found in docs/. */
  documentFiles: number;
  issues: FoundryIssue[];
}

export { listDomainDirs } from "./domain-dirs.js";

/**
 * Everything wrong with world.yaml: its schema, names and references, rules, approvals, events,
 * every SQL statement prepared against the world's schema (see load-world.ts), and whether the
 * initial state builds from it with the card's seed.
 */
function worldIssues(loaded: LoadedDomain): FoundryIssue[] {
  if (loaded.worldText === undefined) return [];
  const checked = parseWorld(loaded.worldText, "world.yaml");
  if (!checked.world) return checked.problems;
  if (!loaded.card) return [];
  try {
    buildBaseState(checked.world, { seed: loaded.card.generation.seed, epoch: loaded.card.generation.epoch });
    return [];
  } catch (e) {
    if (!FoundryError.is(e)) throw e;
    // build-state names the table as `tables.<name>`: point at that table's entry in the file.
    const name = /^tables\.(.+)$/.exec(e.location.path ?? "")?.[1];
    const index = checked.world.tables.findIndex((t) => t.name === name);
    const line = index >= 0 ? parseYaml(loaded.worldText, "world.yaml").source?.lineOf(["tables", index]) : undefined;
    return [{ ...e.toIssue(), file: "world.yaml", ...(line !== undefined ? { line } : {}), ...(index >= 0 ? { path: `tables[${index}]` } : {}) }];
  }
}

/**
 * The one validation of a domain folder, used by `synth check-sources` and by the build's ingest
 * node alike: card, documents' front matter, cross-document links (duplicates, supersession),
 * world.yaml in full, and what the SOP extractor finds wrong in the documents (unknown
 * operations, duplicate anchors, procedures without id or steps, `If` without `then`, bad step or
 * clause references, formal rules whose clause no current document defines). Review items of the
 * extractor are not input errors and are left to `synth sop`. Issue files are joined to `dir`.
 */
export function validateSources(dir: string): { check: DomainCheck; loaded: LoadedDomain } {
  const loaded = loadDomain(dir);
  if (loaded.environment === "simulated") return { check: simulatedCheck(dir, loaded), loaded };
  const world = worldIssues(loaded);
  // The extractor reads world.yaml with a weaker reader of the same schema: when the world loader
  // found problems, the extractor's SOP_WORLD_INVALID repeats them.
  const extracted = extractLoadedSync(loaded).sop.problems.filter((p) => p.severity === "error" && !(world.length > 0 && p.code === "SOP_WORLD_INVALID"));
  return { check: domainCheck(dir, loaded, [...loaded.issues, ...world, ...extracted.map((p) => ({ code: p.code, message: p.message, ...(p.file !== null ? { file: p.file } : {}), ...(p.line !== null ? { line: p.line } : {}) }))]), loaded };
}

/**
 * A simulated-only domain (`environment: simulated`): card and documents as for any domain, and no
 * world.yaml (the environment builder writes a simulator's configuration instead). Its documents
 * define the clauses its rubrics cite: a clause defined twice in one document is an error.
 */
function simulatedCheck(dir: string, loaded: LoadedDomain): DomainCheck {
  const issues = [...loaded.issues];
  if (loaded.worldText !== undefined) issues.push({ code: "SIMULATED_WITH_WORLD", message: "the card says `environment: simulated`, but the domain has a world.yaml: remove one of them", file: "world.yaml" });
  for (const d of loaded.documents) {
    const seen = new Set<string>();
    for (const c of definedClauses(d.body)) {
      if (seen.has(c.id)) issues.push({ code: "SOP_DUPLICATE_ANCHOR", message: `clause ${c.id} is defined twice in ${d.meta.id}@${d.meta.version}`, file: d.file, line: d.bodyLine + c.line - 1 });
      seen.add(c.id);
    }
  }
  return domainCheck(dir, loaded, issues);
}

function domainCheck(dir: string, loaded: LoadedDomain, all: FoundryIssue[]): DomainCheck {
  const issues = all.map((i) => ({ ...i, file: i.file !== undefined && i.file !== dir ? join(dir, i.file) : i.file }));
  issues.sort((a, b) => (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0) || a.code.localeCompare(b.code));
  return { domain: loaded.card?.id ?? dir, dir, documents: loaded.documents.length, documentFiles: loaded.documentFiles, issues };
}

/** Check one domain folder (see validateSources); what `synth check-sources` prints. */
export function checkDomain(dir: string): DomainCheck {
  return validateSources(dir).check;
}
