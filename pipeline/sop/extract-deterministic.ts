import { contentHash, sha256 } from "../core/canonical-json.js";
import type { DomainCard } from "../schemas/domain-card.js";
import type { DocumentFrontMatter } from "../schemas/document-front-matter.js";
import type { Sop, SopDocument, SopProblem, SopRule, SopWorkflow } from "../schemas/sop.js";
import type { DocumentOutline } from "../sources/outline-types.js";
import { clauseResolver } from "./clause-references.js";
import { defaultProfile } from "./customer-profile.js";
import type { DocInput } from "./extract-context.js";
import { extractRules } from "./extract-rules.js";
import { extractWorkflows } from "./extract-workflows.js";
import { SOP_EXTRACTOR_VERSION } from "./extractor-version.js";
import { problem, sortProblems } from "./problems.js";
import { compareVersions, judgeDocumentVersions, type CustomerProfile } from "./select-rules.js";
import { unknownClauseProblems, unknownProcedureProblems } from "./unknown-clauses.js";
import { readWorld, type WorldIndex } from "./world-index.js";

/** A document ready for extraction: its file, validated front matter, whole text and outline. */
export interface OutlinedDocument {
  file: string;
  meta: DocumentFrontMatter;
  text: string;
  outline: DocumentOutline;
}

export interface DeterministicInput {
  /** Domain id (the card's id, or the folder name when the card is unreadable). */
  domain: string;
  card: DomainCard | null;
  /** world.yaml text, null when the file is missing (already reported by the loader). */
  worldText: string | null;
  documents: readonly OutlinedDocument[];
}

export interface DeterministicOptions {
  /** Date that decides which versions are in force (default: the card's `as_of`; with neither, every version counts as current). */
  asOf?: string | null;
  /** Default customer profile (default: from the world's customer table). */
  customer?: CustomerProfile;
  strategy?: Sop["strategy"];
}

/** Everything the LLM strategy needs besides the SOP itself. */
export interface DeterministicResult {
  sop: Sop;
  world: WorldIndex | null;
  docs: DocInput[];
}

/** Rules in a stable order: document, version, line. */
export function sortRules(rules: SopRule[]): SopRule[] {
  return rules.sort((a, b) => a.document.localeCompare(b.document) || compareVersions(a.version, b.version) || a.provenance.line_start - b.provenance.line_start);
}

/** Hash of everything the extraction depends on: extractor, strategy, date, profile, card, world and documents. */
export function sourcesHash(input: DeterministicInput, asOf: string | null, profile: CustomerProfile, strategy: string): string {
  return contentHash({
    extractor: SOP_EXTRACTOR_VERSION,
    strategy,
    as_of: asOf,
    profile,
    card: input.card,
    world: input.worldText === null ? null : sha256(input.worldText),
    documents: input.documents.map((d) => ({ file: d.file, sha256: sha256(d.text) })).sort((a, b) => a.file.localeCompare(b.file)),
  });
}

/**
 * The deterministic SOP extractor over a whole domain: rules and workflows of every document
 * version, their status for the as-of date and the default customer profile, links to the world's
 * formal rules, and every problem (errors with file and line; review items where meaning could not
 * be established). Pure: the same input always gives the same SOP.
 */
export function extractDeterministic(input: DeterministicInput, opts: DeterministicOptions = {}): DeterministicResult {
  const problems: SopProblem[] = [];
  const worldRead = input.worldText === null ? null : readWorld(input.worldText);
  for (const i of worldRead?.issues ?? []) problems.push(problem(i.code, i.path ? `${i.path}: ${i.message}` : i.message, { file: "world.yaml", line: i.line ?? null }, "error"));
  const world = worldRead?.index ?? null;
  const asOf = opts.asOf !== undefined ? opts.asOf : (input.card?.as_of ?? null);
  const profile = opts.customer ?? defaultProfile(world?.world ?? null);
  const strategy = opts.strategy ?? "deterministic";

  const verdicts = asOf === null ? null : judgeDocumentVersions(input.documents.map((d) => d.meta), { date: asOf, customer: profile });
  const docs: DocInput[] = input.documents.map((d, i) => ({ file: d.file, meta: d.meta, text: d.text, outline: d.outline, status: verdicts?.[i]?.status ?? "current" }));
  const documents: SopDocument[] = input.documents.map((d, i) => ({
    id: d.meta.id,
    version: d.meta.version,
    title: d.meta.title,
    kind: d.meta.kind,
    file: d.file,
    effective_from: d.meta.effective_from,
    effective_to: d.meta.effective_to,
    scope: d.meta.scope,
    supersedes: d.meta.supersedes,
    status: verdicts?.[i]?.status ?? "current",
    status_reason: verdicts?.[i]?.reason ?? "no as-of date known: every version counts as current",
  }));

  const defined = new Set(docs.flatMap((d) => d.outline.anchors.map((a) => a.id)));
  const refs = clauseResolver(defined);
  const procedures = new Set(docs.flatMap((d) => d.outline.sections.filter((s) => s.anchor !== null && /^Procedure\s*:/i.test(s.title)).map((s) => s.anchor as string)));
  const rules: SopRule[] = [];
  const candidates: SopWorkflow[] = [];
  for (const d of docs) {
    const r = extractRules(d, world);
    rules.push(...r.rules);
    problems.push(...r.problems);
    const w = extractWorkflows(d, world, refs);
    problems.push(...w.problems);
    if (d.status === "current") candidates.push(...w.workflows);
    problems.push(...unknownClauseProblems(d, refs), ...unknownProcedureProblems(d, procedures));
  }
  const workflows = pickWorkflows(candidates, docs, problems);
  if (world && worldRead) linkFormalRules(rules, world, worldRead.lineOf, problems);

  documents.sort((a, b) => a.id.localeCompare(b.id) || compareVersions(a.version, b.version));
  const sop: Sop = {
    domain: input.domain,
    strategy,
    sources_hash: sourcesHash(input, asOf, profile, strategy),
    documents,
    workflows: workflows.sort((a, b) => a.id.localeCompare(b.id)),
    rules: sortRules(rules),
    problems: sortProblems(problems),
  };
  return { sop, world, docs };
}

/** One workflow per id: two documents defining the same id is an error; two current versions of one document keep the newer. */
function pickWorkflows(candidates: readonly SopWorkflow[], docs: readonly DocInput[], problems: SopProblem[]): SopWorkflow[] {
  const byId = new Map<string, SopWorkflow>();
  const fileOf = (w: SopWorkflow) => docs.find((d) => d.meta.id === w.document && d.meta.version === w.version)?.file ?? null;
  for (const w of candidates) {
    const prev = byId.get(w.id);
    if (!prev) {
      byId.set(w.id, w);
      continue;
    }
    const at = { document: w.document, file: fileOf(w), line: w.provenance.line_start };
    if (prev.document !== w.document) {
      problems.push(problem("SOP_DUPLICATE_WORKFLOW", `procedure id ${w.id} is also defined in ${prev.document}@${prev.version} (${fileOf(prev)})`, at, "error"));
      continue;
    }
    const keep = compareVersions(w.version, prev.version) > 0 ? w : prev;
    problems.push(problem("SOP_WORKFLOW_SEVERAL_VERSIONS", `procedure ${w.id} is in force in versions ${prev.version} and ${w.version} of ${w.document}; version ${keep.version} is kept (check the versions' scopes and dates)`, at, "review"));
    byId.set(w.id, keep);
  }
  return [...byId.values()];
}

/** Link each rule to the world's formal rule for its clause; a formal rule whose clause no current document defines is an error. */
function linkFormalRules(rules: SopRule[], world: WorldIndex, lineOf: (p: ReadonlyArray<PropertyKey>) => number | undefined, problems: SopProblem[]): void {
  const reported = new Set<string>();
  for (const r of rules) {
    const key = `${r.document}\u0000${r.id}`;
    const list = [...(world.rulesByClause.get(key) ?? [])].sort((a, b) => a.id.localeCompare(b.id));
    const first = list[0];
    if (!first) continue;
    r.formal_rule = first.id;
    if (list.length > 1 && r.status === "current" && !reported.has(key)) {
      reported.add(key);
      problems.push(problem("SOP_CLAUSE_SEVERAL_FORMAL_RULES", `clause ${r.id} is enforced by formal rules ${list.map((f) => f.id).join(", ")}; the SOP records ${first.id}`, { file: "world.yaml", line: lineOf(["rules", world.world.rules.indexOf(list[1] as (typeof list)[number]), "clause"]) ?? null }, "review"));
    }
  }
  world.world.rules.forEach((fr, i) => {
    const versions = rules.filter((r) => r.document === fr.clause.document && r.id === fr.clause.clause);
    if (versions.some((r) => r.status === "current")) return;
    const where = versions.length === 0 ? "no document defines it" : `it is defined only in ${versions.map((r) => `${r.document}@${r.version} (${r.status.replace(/_/g, " ")})`).join(", ")}`;
    problems.push(problem("SOP_RULE_CLAUSE_MISSING", `formal rule ${fr.id} points at clause ${fr.clause.clause} of ${fr.clause.document}, but ${where}`, { file: "world.yaml", line: lineOf(["rules", i, "clause"]) ?? null }, "error"));
  });
}
