import { RandomStream } from "../core/random.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import { domainContext } from "./domain-context.js";
import type { DesignResult } from "../agents/types.js";
import { FoundryError } from "../core/errors.js";
import { modelFailureReason } from "../llm/failure-reason.js";

/** design task (one Send branch per slot): a task draft for this slot, or why none could be made. */
export async function designTask(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("design_task");
  const ctx = domainContext(state, svc);
  const inputs = { sop: state.sopHash, world: state.worldHash, generation: ctx.card.generation, slot: state.slot, strategy: svc.strategies["task-designer"] };
  // A model failure drops this slot with its reason (class, task, stage, model); the other
  // branches go on. Thrown out of the through(), so nothing is cached and the next build asks again.
  const { value, hit } = await svc.cache
    .through<DesignResult>("design_task", inputs, () => svc.designer.design(ctx, state.slot, new RandomStream(ctx.card.generation.seed).fork(`task-slot/${state.slot}`)))
    .catch((e: unknown) => {
      if (!FoundryError.is(e)) throw e;
      return { value: { ok: false as const, reason: modelFailureReason(e) }, hit: false };
    });
  svc.progress.emit({ event: "item", domain: state.domain, stage: "design_tasks", done: state.slot + 1, total: state.slots.length, cache_hits: hit ? 1 : 0 });
  const record: TaskRecord = value.ok
    ? { slot: state.slot, id: value.task.id, task: value.task, golden: null, status: "designed", reason: null, diagnosis: null, repairs: [], validation: null }
    : { slot: state.slot, id: null, task: null, golden: null, status: "dropped", reason: `design: ${value.reason}`, diagnosis: null, repairs: [], validation: null };
  return { records: [record] };
}
