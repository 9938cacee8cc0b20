import { services, type NodeConfig } from "../build/services.js";

/**
 * Wrap a node so the build's run statistics get its wall time and stage-cache hits (kept apart
 * from the artifacts: they differ from run to run).
 */
export function timed<S, U>(stage: string, node: (state: S, config?: NodeConfig) => Promise<U>): (state: S, config?: NodeConfig) => Promise<U> {
  return async (state, config) => {
    const svc = services(config);
    const t0 = performance.now();
    const hits = svc.cache.hits;
    try {
      return await node(state, config);
    } finally {
      const s = svc.runStats.get(stage) ?? { ms: 0, cacheHits: 0 };
      svc.runStats.set(stage, { ms: s.ms + (performance.now() - t0), cacheHits: s.cacheHits + (svc.cache.hits - hits) });
    }
  };
}
