import type { DomainCard, Sop, WorldModel } from "../schemas/index.js";
import type { InitialState } from "./build-state.js";
import type { KnowledgeDocument } from "./documents-tool.js";

/**
 * Everything known about one built domain: its card, SOP, world, base initial state and knowledge
 * base. The synthesis graph builds it once per domain; validation and the evaluator read the same
 * shape back from `generated/<domain>/` or a release. Nothing in it is mutable.
 */
export interface DomainContext {
  card: DomainCard;
  sop: Sop;
  world: WorldModel;
  /** Base initial state (before any task overlay). */
  base: InitialState;
  /** The knowledge base the agent sees: every document version, by id. */
  documents: readonly KnowledgeDocument[];
}
