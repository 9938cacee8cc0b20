import { contentHash } from "../core/canonical-json.js";
import type { LoadedDomain } from "../sources/load-domain.js";

/** Content hash of a loaded domain folder (card, world.yaml text, every document's whole text): keys every stage, and the build record. */
export function sourcesHash(loaded: Pick<LoadedDomain, "card" | "worldText" | "documents">): string {
  return contentHash({
    card: loaded.card,
    world: loaded.worldText ?? "",
    documents: loaded.documents.map((d) => ({ file: d.file, text: d.text })),
  });
}
