import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { FoundryError } from "../core/errors.js";
import type { Sop } from "../schemas/sop.js";
import { loadDomain } from "../sources/load-domain.js";
import { ingestDocuments, type IngestCache } from "../sources/ingest.js";
import { extractDeterministic, sortRules, type DeterministicOptions } from "./extract-deterministic.js";
import { domainIdOf, loaderProblems, outlinedDocuments } from "./extract-loaded.js";
import { extractWithLlm, type LlmExtractOptions } from "./extract-llm.js";
import { sortProblems } from "./problems.js";

export interface ExtractOptions extends DeterministicOptions {
  /** `deterministic` (default) or `llm` (the deterministic pass, plus a model reading the prose documents). */
  strategy?: Sop["strategy"];
  /** Chat model for the `llm` strategy (required with it). */
  model?: Pick<BaseChatModel, "invoke">;
  /** Outline cache (memory, and disk when it has a dir). Default: none. */
  cache?: IngestCache;
  /** Settings of the model calls. */
  llm?: Omit<LlmExtractOptions, "model">;
}

/**
 * Extract the SOP of a domain folder: load and check its files, ingest the documents (cached by
 * content, parallel for large domains), run the deterministic extractor, and with the `llm`
 * strategy let the model read the prose documents. Loader problems are part of `problems`.
 */
export async function extractDomainSop(domainDir: string, opts: ExtractOptions = {}): Promise<Sop> {
  const loaded = loadDomain(domainDir);
  if (!loaded.card) {
    throw new FoundryError("SOP_NO_CARD", "the domain card is missing or invalid, so the as-of date is unknown; run `synth check-sources` on the folder", { file: domainDir });
  }
  const strategy = opts.strategy ?? "deterministic";
  if (strategy === "llm" && !opts.model) throw new FoundryError("USAGE", "the llm strategy needs a chat model (configure `model` or `models.sop-extractor`)");
  const ingested = await ingestDocuments(
    loaded.documents.map((d) => ({ file: d.file, text: d.text })),
    { cache: opts.cache },
  );
  const det = extractDeterministic({ domain: domainIdOf(loaded), card: loaded.card, worldText: loaded.worldText ?? null, documents: outlinedDocuments(loaded, ingested) }, { ...opts, strategy });
  const sop = det.sop;
  sop.problems.push(...loaderProblems(loaded.issues));
  if (strategy === "llm" && opts.model) {
    const llm = await extractWithLlm(det, { ...opts.llm, model: opts.model });
    sop.rules = sortRules([...sop.rules, ...llm.rules]);
    sop.workflows = [...sop.workflows, ...llm.workflows].sort((a, b) => a.id.localeCompare(b.id));
    sop.problems.push(...llm.problems);
  }
  sop.problems = sortProblems(sop.problems);
  return sop;
}
