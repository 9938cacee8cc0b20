import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../../core/canonical-json.js";
import type { FoundryConfig } from "../../core/config.js";
import type { BuildBackend } from "../../build/build-backend.js";
import type { RunEntry } from "../../build/run-index.js";
import type { SlotOutcome, SlotRunner } from "../../build/services.js";
import type { BuildStateType } from "../../graph/state.js";
import { compileDistributedBuildGraph } from "../../graph/distributed-build-graph.js";
import { putFiles, readFolder } from "./blob-store.js";
import { itemKey, putWork, sharedConfig, workKey } from "./work-spec.js";
import { SlotsSpec } from "./slot-item.js";
import { jobId, queueName } from "./queue.js";
import { failedJobs, itemProgress } from "./item-states.js";
import { waitForItems, progressLine } from "./wait-items.js";
import { postgresCheckpointer } from "./checkpointer.js";
import { readResults } from "./results-store.js";
import type { PostgresBackend } from "./postgres-backend.js";

/** The inputs a worker needs for a domain's slots, stored once per build state. */
async function slotsParent(pg: PostgresBackend, config: FoundryConfig, state: BuildStateType): Promise<string> {
  const files = new Map<string, Buffer>();
  for (const [rel, bytes] of readFolder(join(state.paths.sources, state.domain))) files.set(`sources/${state.domain}/${rel}`, bytes);
  files.set(`generated/${state.domain}/sop.json`, readFileSync(join(state.paths.generated, state.domain, "sop.json")));
  const bundle = await putFiles(pg.db, files);
  const spec = SlotsSpec.parse({ domain: state.domain, bundle, state: { seed: state.seed, sourcesHash: state.sourcesHash, sopHash: state.sopHash, worldHash: state.worldHash, slots: state.slots }, config: sharedConfig(config) });
  const parent = workKey("build-slots", { ...spec, bundle: contentHash(bundle) }, pg.code);
  await putWork(pg.db, parent, "build-slots", spec);
  return parent;
}

/**
 * The slot runner of a postgres build: each task slot is one queue item (idempotency key: the
 * domain's inputs, settings and code, and the slot), worked by `synth worker` processes; a Send
 * branch waits for its slot's result. Progress across workers is printed per domain.
 */
function slotRunner(pg: PostgresBackend, config: FoundryConfig): SlotRunner {
  const parents = new Map<string, Promise<string>>();
  const watched = new Map<string, { keys: string[]; timer: NodeJS.Timeout | null; last: string; finished: number }>();
  const name = queueName("slot", pg.code);
  const watch = (domain: string, key: string) => {
    const w = watched.get(domain) ?? { keys: [], timer: null, last: "", finished: 0 };
    watched.set(domain, w);
    w.keys.push(key);
    w.timer ??= setInterval(() => {
      void (async () => {
        const done = (await readResults(pg.db, w.keys)).length;
        const p = await itemProgress(pg.db, name, w.keys.map(jobId));
        const line = progressLine(done, w.keys.length, p.leased, p.waiting, p.failed.length);
        // The last slot's own line was printed while this tick read the database: say nothing older.
        if (w.timer === null) return;
        if (line !== w.last) pg.log(`${domain} slots: ${line}`);
        w.last = line;
        if (done === w.keys.length && w.timer) {
          clearInterval(w.timer);
          w.timer = null;
        }
      })().catch(() => undefined);
    }, 1000);
    // Progress only: never what keeps the process alive after a failed build.
    w.timer.unref();
  };
  return {
    async run(state) {
      const memo = `${state.domain}|${state.sopHash}|${state.worldHash}`;
      if (!parents.has(memo)) parents.set(memo, slotsParent(pg, config, state));
      const parent = await (parents.get(memo) as Promise<string>);
      const item = `slot-${state.slot}`;
      const key = itemKey(parent, item);
      await pg.queue.enqueue(name, [{ key, parent, item }], pg.bounds);
      await pg.queue.retry(name, await failedJobs(pg.db, name, [jobId(key)]));
      watch(state.domain, key);
      let outcome: SlotOutcome | null = null;
      await waitForItems({ db: pg.db, queue: name, keys: [key], rerun: "`synth resume` this build", onResult: (r) => void (outcome = JSON.parse(r.value) as SlotOutcome), pollMs: 500 });
      // The last slot of the domain: its final line now, not at the next tick (the build moves on).
      const w = watched.get(state.domain);
      if (w && ++w.finished === w.keys.length) {
        if (w.timer) clearInterval(w.timer);
        w.timer = null;
        const line = progressLine(w.finished, w.keys.length, {}, 0, 0);
        if (line !== w.last) pg.log(`${state.domain} slots: ${line}`);
        w.last = line;
      }
      return outcome as unknown as SlotOutcome;
    },
  };
}

/** The postgres backend of `synth build` / `synth resume`: Postgres checkpoints, the distributed graph, slots as queue items, the response cache in the database. */
export function postgresBuild(pg: PostgresBackend, config: FoundryConfig): BuildBackend {
  return {
    kind: "postgres",
    checkpointer: (_entry: RunEntry) => postgresCheckpointer(pg.db),
    compile: (cp) => compileDistributedBuildGraph(cp) as unknown as ReturnType<BuildBackend["compile"]>,
    responseCache: pg.responseCache,
    slots: () => slotRunner(pg, config),
  };
}
