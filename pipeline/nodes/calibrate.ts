import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Task } from "../schemas/index.js";
import { canonicalJson } from "../core/canonical-json.js";
import { structuralDifficulty } from "../build/difficulty.js";

/**
 * calibrate difficulty: tasks that repeat an earlier task's workflows and subjects are dropped as
 * duplicates; the others get a difficulty label.
 */
export async function calibrate(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("calibrate");
  const seen = new Map<string, string>();
  const records: TaskRecord[] = [];
  for (const r of state.records) {
    if (r.status === "failed") {
      records.push({ ...r, status: "dropped", reason: `${r.reason ?? "failed"} (repair attempts exhausted)` });
      continue;
    }
    if (r.status !== "verified" || !r.task) continue;
    const task = r.task as Task;
    const signature = canonicalJson({ workflows: [...task.workflows].sort(), plan: task.reference_plan.map((p) => [p.operation, p.args]) });
    const first = seen.get(signature);
    if (first) {
      records.push({ ...r, status: "dropped", reason: `duplicate of ${first}` });
      continue;
    }
    seen.set(signature, task.id);
    records.push({ ...r, task: { ...task, difficulty: structuralDifficulty(task) } });
  }
  const kept = records.filter((r) => r.status === "verified").length;
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "calibrate", done: kept, total: records.length });
  return { records, stages: [{ stage: "calibrate", items_in: records.length, items_out: kept, dropped: records.filter((r) => r.status === "dropped" && r.id).map((r) => ({ item: r.id as string, reason: r.reason ?? "" })) }] };
}
