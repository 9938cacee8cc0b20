import type { ReleaseManifest } from "../schemas/index.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import type { DomainSummary, PlannedFile } from "./collect-domain.js";
import type { BuildFacts } from "./datasheet.js";
import type { ReleaseStats } from "./release-stats.js";

/** The manifest of a set of planned files: sha256 of each (sorted by path), root hash, build facts and counts. */
export function buildManifest(files: readonly PlannedFile[], domains: readonly DomainSummary[], stats: ReleaseStats, facts: BuildFacts): ReleaseManifest {
  const hashes: Record<string, string> = {};
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) hashes[f.path] = f.sha256;
  const byDomain: ReleaseManifest["counts"]["by_domain"] = {};
  for (const d of domains) byDomain[d.id] = { industry: d.card.industry, documents: d.documents, tasks: d.tasks.length };
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
    counts: { domains: domains.length, documents: stats.documents, tasks: stats.tasks, checks: stats.checks, by_domain: byDomain },
  };
}
