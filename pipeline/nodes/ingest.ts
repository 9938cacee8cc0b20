import { join } from "node:path";
import { contentHash } from "../core/canonical-json.js";
import { loadValidDomain } from "../build/load-context.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";

/** ingest: read and validate the domain folder; its content hash keys every later stage. */
export async function ingest(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("ingest");
  const loaded = loadValidDomain(join(state.paths.sources, state.domain));
  const sourcesHash = contentHash({
    card: loaded.card,
    world: loaded.worldText ?? "",
    documents: loaded.documents.map((d) => ({ file: d.file, text: d.text })),
  });
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "ingest", done: loaded.documents.length, total: loaded.documentFiles });
  return { sourcesHash, stages: [{ stage: "ingest", items_in: loaded.documentFiles, items_out: loaded.documents.length, dropped: [] }] };
}
