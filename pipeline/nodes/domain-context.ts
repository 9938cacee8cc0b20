import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Sop } from "../schemas/index.js";
import type { DomainContext } from "../world/domain-context.js";
import { buildDomainContext } from "../build/load-context.js";
import type { BuildServices } from "../build/services.js";
import type { BuildStateType } from "../graph/state.js";

/** The domain's context for this state (memoised per build; rebuilt from disk after a resume). */
export function domainContext(state: BuildStateType, svc: BuildServices): DomainContext {
  const key = `${state.domain}|${state.sopHash}|${state.seed ?? "card"}`;
  const hit = svc.contexts.get(key);
  if (hit) return hit;
  const sop = Sop.parse(JSON.parse(readFileSync(join(state.paths.generated, state.domain, "sop.json"), "utf8")));
  const ctx = buildDomainContext(join(state.paths.sources, state.domain), sop, state.seed);
  svc.contexts.set(key, ctx);
  return ctx;
}
