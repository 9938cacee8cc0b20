import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../core/canonical-json.js";
import { Sop, type DomainCard, type WorldModel } from "../schemas/index.js";
import type { DomainContext } from "../world/domain-context.js";
import type { KnowledgeDocument } from "../world/documents-tool.js";
import { buildDomainContext } from "../build/load-context.js";
import type { BuildServices } from "../build/services.js";
import type { BuildStateType } from "../graph/state.js";

/** A built domain context in the stage cache: everything but the state's bytes, which stay in generated/<domain>/initial-state.sqlite. */
interface CachedContext {
  card: DomainCard;
  world: WorldModel;
  documents: KnowledgeDocument[];
  state: { hash: string; seed: number; sha256: string };
}

const STAGE = "domain_context";

/** The context from the stage cache, when its state file is the one cached (else null: build it again). */
function fromCache(state: BuildStateType, svc: BuildServices, key: string, sop: Sop): DomainContext | null {
  const hit = svc.cache.get<CachedContext>(STAGE, key);
  const file = join(state.paths.generated, state.domain, "initial-state.sqlite");
  if (!hit || !existsSync(file)) return null;
  const buffer = readFileSync(file);
  if (sha256(buffer) !== hit.state.sha256) return null;
  return { card: hit.card, sop, world: hit.world, base: { buffer, hash: hit.state.hash, seed: hit.state.seed }, documents: hit.documents };
}

/**
 * The domain's context for this state (memoised per build; rebuilt from disk after a resume).
 * Loading it parses world.yaml, checks its SQL, builds the base state and reads every document:
 * a pure function of the sources (sourcesHash), the seed and the code, so it is kept in the stage
 * cache (objects as loaded, key order included) and a no-op rebuild does none of it. The state's
 * bytes are read back from generated/<domain>/ and must have the sha256 cached.
 */
export function domainContext(state: BuildStateType, svc: BuildServices): DomainContext {
  const memo = `${state.domain}|${state.sopHash}|${state.seed ?? "card"}`;
  const known = svc.contexts.get(memo);
  if (known) return known;
  const sop = Sop.parse(JSON.parse(readFileSync(join(state.paths.generated, state.domain, "sop.json"), "utf8")));
  const key = svc.cache.key(STAGE, { sources: state.sourcesHash, seed: state.seed ?? null });
  let ctx = fromCache(state, svc, key, sop);
  if (!ctx) {
    ctx = buildDomainContext(join(state.paths.sources, state.domain), sop, state.seed);
    const entry: CachedContext = { card: ctx.card, world: ctx.world, documents: [...ctx.documents], state: { hash: ctx.base.hash, seed: ctx.base.seed, sha256: sha256(ctx.base.buffer) } };
    svc.cache.put(STAGE, key, entry);
  }
  svc.contexts.set(memo, ctx);
  return ctx;
}
