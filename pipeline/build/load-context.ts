import { join } from "node:path";
import type { DomainCard, Sop } from "../schemas/index.js";
import { FoundryError, formatIssue } from "../core/errors.js";
import { loadDomain, type LoadedDomain } from "../sources/load-domain.js";
import { knowledgeDocument } from "../sources/knowledge-document.js";
import { loadWorld } from "../world/load-world.js";
import { buildBaseState } from "../world/build-state.js";
import type { KnowledgeDocument } from "../world/documents-tool.js";
import type { DomainContext } from "../world/domain-context.js";

/** The agent's knowledge base: every loaded document version, in id then version order. */
export function knowledgeBase(loaded: LoadedDomain): KnowledgeDocument[] {
  return loaded.documents
    .map(knowledgeDocument)
    .sort((a, b) => a.id.localeCompare(b.id) || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

/** Load a domain folder's card and documents; refuses (naming every problem) when they are invalid. */
export function loadValidDomain(dir: string): LoadedDomain & { card: DomainCard } {
  const loaded = loadDomain(dir);
  if (loaded.issues.length > 0 || !loaded.card) {
    const lines = loaded.issues.map((i) => formatIssue({ ...i, file: i.file ? join(dir, i.file) : dir }));
    throw new FoundryError("SOURCES_INVALID", `${dir} has ${loaded.issues.length} problem(s); run synth check-sources:\n  ${lines.join("\n  ")}`, { file: dir });
  }
  return loaded as LoadedDomain & { card: DomainCard };
}

/** Build the DomainContext of a domain folder with a given SOP: world, base state and knowledge base. */
export function buildDomainContext(dir: string, sop: Sop, seedOverride: number | null = null): DomainContext {
  const loaded = loadValidDomain(dir);
  const world = loadWorld(join(dir, "world.yaml"), "world.yaml");
  const card = seedOverride === null ? loaded.card : { ...loaded.card, generation: { ...loaded.card.generation, seed: seedOverride } };
  const base = buildBaseState(world, { seed: card.generation.seed, epoch: card.generation.epoch });
  return { card, sop, world, base, documents: knowledgeBase(loaded) };
}
