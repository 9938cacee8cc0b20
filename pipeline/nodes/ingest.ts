import { join } from "node:path";
import { sha256 } from "../core/canonical-json.js";
import { FoundryError, formatIssue } from "../core/errors.js";
import { readDomainFiles } from "../sources/read-domain-files.js";
import { sourcesHash } from "../build/sources-hash.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";

interface IngestOutcome {
  sourcesHash: string;
  documents: number;
  documentFiles: number;
  environment: "executable" | "simulated";
}

/**
 * What validateSources reads, as a stage-cache input: the folder's name and every file it reads
 * (card, world.yaml, each document) by path and content hash. null when reading the files already
 * found a problem (a refused file is never cached: the validation runs and names it).
 */
function filesKey(dir: string, domain: string): unknown {
  const files = readDomainFiles(dir);
  if (files.issues.length > 0) return null;
  const all = [files.card, files.world, ...files.docs].filter((f) => f !== undefined);
  return { domain, doc_files: files.docFiles, files: all.map((f) => [f.rel, sha256(f.text)]) };
}

/**
 * ingest: validate the domain folder with the one validation `synth check-sources` runs, refusing
 * the build (naming every problem) on anything it reports; the content hash keys every later stage.
 * A folder whose every file and whose validation code are unchanged passed before: its outcome
 * comes from the stage cache (the validation is a pure function of them), so a no-op rebuild does
 * not parse the documents again.
 */
export async function ingest(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("ingest");
  const dir = join(state.paths.sources, state.domain);
  const inputs = filesKey(dir, state.domain);
  const key = inputs === null ? null : svc.cache.key("ingest", inputs);
  let outcome = key === null ? undefined : svc.cache.get<IngestOutcome>("ingest", key);
  const hit = outcome !== undefined;
  if (!outcome) {
    // The validation (Markdown parser, SOP extractor, world checks) loads only when it runs.
    const { validateSources } = await import("../sources/check-sources.js");
    const { check, loaded } = validateSources(dir);
    if (check.issues.length > 0 || !loaded.card) {
      const lines = check.issues.map((i) => formatIssue(i));
      throw new FoundryError("SOURCES_INVALID", `${dir} has ${check.issues.length} problem(s); run synth check-sources:\n  ${lines.join("\n  ")}`, { file: dir });
    }
    outcome = { sourcesHash: sourcesHash(loaded), documents: loaded.documents.length, documentFiles: loaded.documentFiles, environment: loaded.environment ?? "executable" };
    if (key !== null) svc.cache.put("ingest", key, outcome);
  }
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "ingest", done: outcome.documents, total: outcome.documentFiles, cache_hits: hit ? 1 : 0 });
  return { sourcesHash: outcome.sourcesHash, environment: outcome.environment ?? "executable", stages: [{ stage: "ingest", items_in: outcome.documentFiles, items_out: outcome.documents, dropped: [] }] };
}
