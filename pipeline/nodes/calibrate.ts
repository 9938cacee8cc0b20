import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { Task } from "../schemas/index.js";
import { canonicalJson } from "../core/canonical-json.js";
import { calibrateTask } from "../build/verify-task.js";
import { domainContext } from "./domain-context.js";

/** Violation traces a released task must have, each failing on the check it targets. */
export const MIN_KILLED_MUTANTS = 5;

/**
 * calibrate difficulty: a task with fewer than MIN_KILLED_MUTANTS killed violation traces is
 * dropped (its checks are not shown to bite); the probe panel runs on every verified task. A task the competent probe
 * cannot solve from the documents, or that every flawed probe solves, is dropped with the reason;
 * the others get their label from which flawed probes fail. Tasks that repeat an earlier task's
 * workflows and plan are dropped as duplicates; tasks still failing after the repair rounds are
 * dropped with their diagnosis.
 */
export async function calibrate(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("calibrate");
  const ctx = domainContext(state, svc);
  const seen = new Map<string, string>();
  const records: TaskRecord[] = [];
  const todo = state.records.filter((r) => r.status === "verified" || r.status === "failed");
  svc.progress.emit({ event: "stage", domain: state.domain, stage: "calibrate", total: todo.length });
  for (const [i, r] of todo.entries()) {
    svc.progress.emit({ event: "item", domain: state.domain, stage: "calibrate", done: i + 1, total: todo.length });
    const drop = (reason: string, probes = r.validation?.probes ?? {}): TaskRecord => ({ ...r, status: "dropped", reason, validation: r.validation ? { ...r.validation, status: "dropped", probes, difficulty: null, drop_reason: reason } : null });
    if (r.status === "failed") {
      records.push(drop(`${r.reason ?? "failed"} (repair attempts exhausted)`));
      continue;
    }
    const task = r.task as Task;
    const killed = (r.validation?.mutants ?? []).filter((m) => m.killed).length;
    if (killed < MIN_KILLED_MUTANTS) {
      records.push(drop(`violations: only ${killed} violation trace(s) apply and fail on their target check; a released task needs at least ${MIN_KILLED_MUTANTS}`));
      continue;
    }
    const signature = canonicalJson({ workflows: [...task.workflows].sort(), plan: task.reference_plan.map((p) => [p.operation, p.args]) });
    const first = seen.get(signature);
    if (first) {
      records.push(drop(`duplicate of ${first}`));
      continue;
    }
    const { value: cal } = await svc.cache.through("calibrate", { task, world: state.worldHash, sop: state.sopHash }, () => calibrateTask(ctx, task));
    if (cal.verdict === "dropped") {
      records.push(drop(cal.reason, cal.probes));
      continue;
    }
    seen.set(signature, task.id);
    const gates = [...(r.validation?.gates ?? []), { gate: "solvability" as const, passed: true, detail: "the competent probe solves the task from the documents" }, { gate: "difficulty" as const, passed: true, detail: cal.detail }];
    records.push({ ...r, task: { ...task, difficulty: cal.difficulty }, validation: r.validation ? { ...r.validation, gates, probes: cal.probes, difficulty: cal.difficulty } : null });
  }
  const kept = records.filter((r) => r.status === "verified").length;
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "calibrate", done: kept, total: records.length });
  return { records, stages: [{ stage: "calibrate", items_in: records.length, items_out: kept, dropped: records.filter((r) => r.status === "dropped" && r.id).map((r) => ({ item: r.id as string, reason: r.reason ?? "" })) }] };
}
