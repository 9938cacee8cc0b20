import { availableParallelism } from "node:os";
import { IngestCache, outlineKey } from "./ingest-cache.js";
import { createOutliner } from "./outline-document.js";
import { outlineInParallel } from "./ingest-pool.js";
import type { DocumentOutline } from "./outline-types.js";

export { IngestCache } from "./ingest-cache.js";
export type * from "./outline-types.js";

/** A document to ingest: its path (for reports) and its whole text, front matter included. */
export interface IngestInput {
  file: string;
  text: string;
}

/** An ingested document: its outline, and whether it came from the cache. */
export interface IngestedDocument {
  file: string;
  /** Content key (sha256 of outline format + text). */
  key: string;
  outline: DocumentOutline;
  cached: boolean;
}

export interface IngestOptions {
  /** Outline cache shared across calls (default: none, every document is parsed). */
  cache?: IngestCache;
  /** `auto` (default): worker threads when at least `parallelThreshold` documents miss the cache. */
  parallel?: boolean | "auto";
  /** Worker threads besides the calling thread (default: available cores - 1, at least 1). */
  workers?: number;
  /** Cache misses from which `auto` goes parallel (default 64: below that, thread start-up costs more than it saves). */
  parallelThreshold?: number;
}

let sharedOutliner: ((text: string) => DocumentOutline) | null = null;

/** Outline one Markdown text on the calling thread (no cache). */
export function outlineText(text: string): DocumentOutline {
  sharedOutliner ??= createOutliner();
  return sharedOutliner(text);
}

interface Plan {
  keys: string[];
  out: Array<IngestedDocument | undefined>;
  /** Distinct texts to parse, by key. */
  missing: Map<string, string>;
}

function plan(docs: readonly IngestInput[], cache: IngestCache | undefined): Plan {
  const keys = docs.map((d) => outlineKey(d.text));
  const out: Array<IngestedDocument | undefined> = docs.map((d, i) => {
    const key = keys[i] as string;
    const hit = cache?.get(key);
    return hit ? { file: d.file, key, outline: hit, cached: true } : undefined;
  });
  const missing = new Map<string, string>();
  docs.forEach((d, i) => {
    if (!out[i]) missing.set(keys[i] as string, d.text);
  });
  return { keys, out, missing };
}

function finish(docs: readonly IngestInput[], p: Plan, parsed: Map<string, DocumentOutline>, cache: IngestCache | undefined): IngestedDocument[] {
  for (const [key, outline] of parsed) cache?.set(key, outline);
  return docs.map((d, i) => p.out[i] ?? { file: d.file, key: p.keys[i] as string, outline: parsed.get(p.keys[i] as string) as DocumentOutline, cached: false });
}

/** Ingest documents on the calling thread (for small batches, tests and synchronous callers). */
export function ingestDocumentsSync(docs: readonly IngestInput[], opts: Pick<IngestOptions, "cache"> = {}): IngestedDocument[] {
  const p = plan(docs, opts.cache);
  const parsed = new Map<string, DocumentOutline>();
  for (const [key, text] of p.missing) parsed.set(key, outlineText(text));
  return finish(docs, p, parsed, opts.cache);
}

/**
 * Ingest documents: outlines from the cache where the content is unchanged, the rest parsed —
 * across worker threads for large batches. Output order is input order.
 */
export async function ingestDocuments(docs: readonly IngestInput[], opts: IngestOptions = {}): Promise<IngestedDocument[]> {
  const p = plan(docs, opts.cache);
  const threshold = opts.parallelThreshold ?? 64;
  const workers = opts.workers ?? Math.max(1, availableParallelism() - 1);
  const goParallel = opts.parallel === true || (opts.parallel !== false && p.missing.size >= threshold);
  const parsed = new Map<string, DocumentOutline>();
  if (goParallel && p.missing.size > 0 && workers > 0) {
    sharedOutliner ??= createOutliner();
    const keys = [...p.missing.keys()];
    const outlines = await outlineInParallel([...p.missing.values()], sharedOutliner, { workers });
    keys.forEach((k, i) => parsed.set(k, outlines[i] as DocumentOutline));
  } else {
    for (const [key, text] of p.missing) parsed.set(key, outlineText(text));
  }
  return finish(docs, p, parsed, opts.cache);
}
