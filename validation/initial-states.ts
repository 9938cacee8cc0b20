import type { Task } from "../pipeline/schemas/index.js";
import { canonicalJson } from "../pipeline/core/canonical-json.js";
import { applyOverlay, type InitialState } from "../pipeline/world/build-state.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";

// Mutants, alternatives and probes of one task all start from the same s0: build it once per overlay.
const cache = new WeakMap<Pick<DomainContext, "base" | "world">, Map<string, InitialState>>();

/** s0 of a task: the domain's base state with the task's overlay applied (cached per overlay). */
export function initialStateFor(ctx: Pick<DomainContext, "base" | "world">, task: Pick<Task, "initial_state">): InitialState {
  let perDomain = cache.get(ctx);
  if (!perDomain) cache.set(ctx, (perDomain = new Map()));
  const key = canonicalJson(task.initial_state);
  let state = perDomain.get(key);
  if (!state) perDomain.set(key, (state = applyOverlay(ctx.base, ctx.world, task.initial_state)));
  return state;
}
