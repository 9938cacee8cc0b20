import type { ReleaseManifest } from "../schemas/index.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import type { DomainSummary, PlannedFile } from "./collect-domain.js";
import type { BuildFacts } from "./datasheet.js";
import type { ReleaseStats } from "./release-stats.js";
import type { SimulatedSummary } from "./collect-simulated.js";

/**
 * The manifest of a set of planned files: sha256 of each (sorted by path), root hash, build facts and
 * counts. Simulated-only domains count their documents and tasks (they have no checks).
 */
export function buildManifest(files: readonly PlannedFile[], domains: readonly DomainSummary[], stats: ReleaseStats, facts: BuildFacts, simulated: readonly SimulatedSummary[] = []): ReleaseManifest {
  const hashes: Record<string, string> = {};
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) hashes[f.path] = f.sha256;
  const byDomain: ReleaseManifest["counts"]["by_domain"] = {};
  for (const d of [...domains, ...simulated].sort((a, b) => (a.id < b.id ? -1 : 1))) byDomain[d.id] = { industry: d.card.industry, documents: d.documents, tasks: d.tasks.length };
  const simDocuments = simulated.reduce((n, d) => n + d.documents, 0);
  const simTasks = simulated.reduce((n, d) => n + d.tasks.length, 0);
  return {
    name: facts.name,
    version: facts.version,
    files: hashes,
    root_hash: manifestRootHash(hashes),
    seed: facts.seed,
    replaces: facts.replaces,
    pipeline: facts.pipeline,
    packages: facts.packages,
    models: facts.models,
    counts: { domains: domains.length + simulated.length, documents: stats.documents + simDocuments, tasks: stats.tasks + simTasks, checks: stats.checks, by_domain: byDomain },
  };
}
