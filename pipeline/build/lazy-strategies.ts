import type { Calibrator, DomainContext, Repairer, RubricWriter, Solver, TaskDesigner, WorldDrafter } from "../agents/types.js";

/**
 * Strategies whose module is imported on their first call. A strategy module brings the planner,
 * the gates, the probes and the Markdown parser with it; a rebuild whose stages all come from the
 * stage cache never calls one, so it never loads them. Every role method is async, so the wrapper
 * only awaits the import first; the calibrator's `settings` (a cache-key input, synchronous) is
 * given by the caller.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= load());
}

/** A lazy strategy; `load()` gives the strategy itself (imported on the first call). */
export type Lazy<T> = T & { load(): Promise<T> };

export function lazyDesigner(load: () => Promise<TaskDesigner>): Lazy<TaskDesigner> {
  const get = once(load);
  return { design: async (ctx, slot, rng) => (await get()).design(ctx, slot, rng), load: get };
}

export function lazyRubricWriter(load: () => Promise<RubricWriter>): Lazy<RubricWriter> {
  const get = once(load);
  return { writeChecks: async (ctx, task) => (await get()).writeChecks(ctx, task), load: get };
}

export function lazySolver(load: () => Promise<Solver>): Lazy<Solver> {
  const get = once(load);
  return { solve: async (ctx, task) => (await get()).solve(ctx, task), load: get };
}

export function lazyRepairer(load: () => Promise<Repairer>): Lazy<Repairer> {
  const get = once(load);
  return { repair: async (ctx, task, diagnosis, attempt, golden) => (await get()).repair(ctx, task, diagnosis, attempt, golden), load: get };
}

export function lazyCalibrator(load: () => Promise<Calibrator>, settings: (ctx: DomainContext) => unknown): Lazy<Calibrator> {
  const get = once(load);
  return { calibrate: async (ctx, task) => (await get()).calibrate(ctx, task), settings, load: get };
}

export function lazyWorldDrafter(load: () => Promise<WorldDrafter>): Lazy<WorldDrafter> {
  const get = once(load);
  return { draft: async (dir) => (await get()).draft(dir), load: get };
}
