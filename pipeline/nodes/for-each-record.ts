import type { BuildServices } from "../build/services.js";
import type { BuildStateType, TaskRecord } from "../graph/state.js";

/**
 * Run one stage over the records in `status`, with progress; an item that throws is dropped with
 * its error as the reason and every other item goes on.
 */
export async function forEachRecord(
  state: BuildStateType,
  svc: BuildServices,
  stage: string,
  status: TaskRecord["status"],
  work: (r: TaskRecord) => Promise<TaskRecord>,
): Promise<TaskRecord[]> {
  const todo = state.records.filter((r) => r.status === status);
  const hitsBefore = svc.cache.hits;
  svc.progress.emit({ event: "stage", domain: state.domain, stage, total: todo.length });
  const out: TaskRecord[] = [];
  for (const [i, r] of todo.entries()) {
    try {
      out.push(await work(r));
    } catch (e) {
      out.push({ ...r, status: "dropped", reason: `${stage}: ${(e as Error).message}` });
    }
    svc.progress.emit({ event: "item", domain: state.domain, stage, done: i + 1, total: todo.length, cache_hits: svc.cache.hits - hitsBefore });
  }
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage, done: out.filter((r) => r.status !== "dropped").length, total: todo.length, cache_hits: svc.cache.hits - hitsBefore });
  return out;
}
