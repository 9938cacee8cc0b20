import { join } from "node:path";
import { z } from "zod";
import { FoundryConfig } from "../../core/config.js";
import { contentHash } from "../../core/canonical-json.js";
import { FoundryError } from "../../core/errors.js";
import type { Task, Trace } from "../../schemas/index.js";
import { makeServices } from "../../build/run-build.js";
import { Progress } from "../../build/progress.js";
import type { BuildServices, SlotOutcome } from "../../build/services.js";
import { compileSlotGraph } from "../../graph/slot-graph.js";
import type { SlotStateType } from "../../graph/slot-state.js";
import { domainContext } from "../../nodes/domain-context.js";
import { verifyTask, type Verification } from "../../../validation/validate-task.js";
import { materialize } from "./blob-store.js";
import { postgresCheckpointer } from "./checkpointer.js";
import { workConfig } from "./work-spec.js";
import type { ItemHandler, WorkerContext } from "./item-handler.js";

/** What every worker needs to run any task slot of one domain's build (the `work` row of kind `build-slots`). */
export const SlotsSpec = z
  .object({
    domain: z.string(),
    /** `sources/<domain>/…` and `generated/<domain>/sop.json` (relative path → sha256), stored in the database. */
    bundle: z.record(z.string(), z.string()),
    state: z.object({ seed: z.number().int().nullable(), sourcesHash: z.string(), sopHash: z.string(), worldHash: z.string(), slots: z.array(z.number().int()) }).strict(),
    config: FoundryConfig.partial(),
  })
  .strict();
export type SlotsSpec = z.infer<typeof SlotsSpec>;

interface LoadedSlots {
  parent: string;
  spec: SlotsSpec;
  paths: SlotStateType["paths"];
  svc: BuildServices & { close(): void };
}

async function load(spec: SlotsSpec, w: WorkerContext, parent: string): Promise<LoadedSlots> {
  const base = await materialize(w.db, spec.bundle, join(w.cacheDir, "builds", contentHash(spec.bundle)));
  const paths = { sources: join(base, "sources"), sop: join(base, "sop"), generated: join(base, "generated"), cache: w.config.cache_dir };
  const svc = makeServices(workConfig(w.config, spec.config), paths, new Progress("silent"), undefined, undefined, { responseCache: w.responseCache });
  return { parent, spec, paths, svc };
}

/**
 * One task slot's per-slot work as a queue item: the slot graph (design → checks → solve → verify →
 * repair → calibrate) on LangGraph's Postgres checkpointer, so a retried item resumes at its last
 * completed node on a worker with the same folder layout (the thread is named by item and paths).
 * Its value: the slot's record, the violation traces of its last verification and the calibration.
 */
export const slotHandler: ItemHandler<LoadedSlots> = {
  kind: "slot",
  workKind: "build-slots",
  load: (spec, w, parent) => load(SlotsSpec.parse(spec), w, parent),
  async run(l, item, w) {
    const m = /^slot-(\d+)$/.exec(item);
    const slot = m ? Number(m[1]) : -1;
    if (!l.spec.state.slots.includes(slot)) throw new FoundryError("QUEUE_ITEM_INVALID", `build item ${item} names no slot of ${l.spec.domain}`, {}, item);
    const app = compileSlotGraph(await postgresCheckpointer(w.db));
    const config = { configurable: { thread_id: `slot/${l.parent}/${item}/${contentHash(l.paths)}` }, context: l.svc as unknown as Record<string, unknown>, durability: "sync" as const, recursionLimit: 200 };
    const before = await app.getState(config);
    if (!before.config?.configurable?.checkpoint_id) {
      await app.invoke({ domain: l.spec.domain, paths: l.paths, review: false, ...l.spec.state, slot, records: [] }, config);
    } else if (before.next.length > 0) {
      await app.invoke(null, config);
    }
    const final = (await app.getState(config)).values as SlotStateType;
    const record = final.records[0];
    if (!record) throw new FoundryError("BUILD_SLOT_EMPTY", `slot ${slot} of ${l.spec.domain} ended without a record`, {}, item);
    let violations: SlotOutcome["violations"] = [];
    if (record.status === "verified" && record.task && record.golden) {
      // The verify node's own cache entry (a hit on this worker; recomputed, the same, on another).
      const ctx = domainContext(final, l.svc);
      const task = record.task as Task;
      const { value } = await l.svc.cache.through<Verification>("verify", { task: record.task, golden: record.golden, world: final.worldHash }, async () => verifyTask(ctx, task, record.golden as Trace));
      violations = value.violations;
    }
    const outcome: SlotOutcome = { record, violations, calibration: final.calibration ?? null };
    return { value: JSON.stringify(outcome), attachment: null };
  },
  close: (l) => l.svc.close(),
};
