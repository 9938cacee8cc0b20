import { basename } from "node:path";
import type { FoundryIssue } from "../core/errors.js";
import type { SopProblem } from "../schemas/sop.js";
import type { LoadedDomain } from "../sources/load-domain.js";
import { ingestDocumentsSync, type IngestCache, type IngestedDocument } from "../sources/ingest.js";
import { extractDeterministic, type DeterministicOptions, type DeterministicResult, type OutlinedDocument } from "./extract-deterministic.js";
import { problem } from "./problems.js";

/** Loader issues as SOP problems: each is an error in the input. */
export function loaderProblems(issues: readonly FoundryIssue[]): SopProblem[] {
  return issues.map((i) => problem(i.code, i.path ? `${i.path}: ${i.message}` : i.message, { file: i.file ?? null, line: i.line ?? null }, "error"));
}

/** The loaded documents paired with their outlines (same order). */
export function outlinedDocuments(loaded: LoadedDomain, ingested: readonly IngestedDocument[]): OutlinedDocument[] {
  return loaded.documents.map((d, i) => ({ file: d.file, meta: d.meta, text: d.text, outline: (ingested[i] as IngestedDocument).outline }));
}

/** The domain id: the card's, or the folder name when the card is unreadable. */
export function domainIdOf(loaded: LoadedDomain): string {
  return loaded.card?.id ?? basename(loaded.root.replace(/[/\\]+$/, ""));
}

/** The deterministic extraction of an already loaded domain, on the calling thread (check-sources uses it). */
export function extractLoadedSync(loaded: LoadedDomain, opts: DeterministicOptions & { cache?: IngestCache } = {}): DeterministicResult {
  const ingested = ingestDocumentsSync(
    loaded.documents.map((d) => ({ file: d.file, text: d.text })),
    { cache: opts.cache },
  );
  return extractDeterministic({ domain: domainIdOf(loaded), card: loaded.card ?? null, worldText: loaded.worldText ?? null, documents: outlinedDocuments(loaded, ingested) }, opts);
}
