import { join } from "node:path";
import { contentHash } from "../core/canonical-json.js";
import { FoundryError, formatIssue } from "../core/errors.js";
import { validateSources } from "../sources/check-sources.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";

/**
 * ingest: validate the domain folder with the one validation `synth check-sources` runs, refusing
 * the build (naming every problem) on anything it reports; the content hash keys every later stage.
 */
export async function ingest(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("ingest");
  const dir = join(state.paths.sources, state.domain);
  const { check, loaded } = validateSources(dir);
  if (check.issues.length > 0 || !loaded.card) {
    const lines = check.issues.map((i) => formatIssue(i));
    throw new FoundryError("SOURCES_INVALID", `${dir} has ${check.issues.length} problem(s); run synth check-sources:\n  ${lines.join("\n  ")}`, { file: dir });
  }
  const sourcesHash = contentHash({
    card: loaded.card,
    world: loaded.worldText ?? "",
    documents: loaded.documents.map((d) => ({ file: d.file, text: d.text })),
  });
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "ingest", done: loaded.documents.length, total: loaded.documentFiles });
  return { sourcesHash, stages: [{ stage: "ingest", items_in: loaded.documentFiles, items_out: loaded.documents.length, dropped: [] }] };
}
