import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../core/canonical-json.js";
import { modelFailureClass } from "../llm/failure-reason.js";
import { stagedViolationsDir } from "../build/violation-files.js";
import type { BuildServices } from "../build/services.js";
import type { BuildStateType, StageFigures, TaskRecord } from "../graph/state.js";
import { domainContext } from "./domain-context.js";

/**
 * The task slots' outcome as a whole, in the stage cache. Every slot stage (design, checks, solve,
 * verify, repair, calibrate) is a function of the SOP, the world, the domain card, the slots, the
 * strategies with their settings and the code; when none of those changed, the records the slot
 * stages would make are the ones the last build made. A no-op rebuild then goes from the
 * environment straight to collect, without one cache look-up, checkpoint and key per task and stage.
 * The code part of the key is the whole build's fingerprint (no stage of this name is listed in
 * stage-code.ts): any code change the build runs misses it, and the per-stage caches take over.
 */
const STAGE = "domain_tasks";

/** Stage figures made before the fan-out; the others belong to the slot stages and are reused with the records. */
const BEFORE_FAN_OUT = new Set(["ingest", "extract_sop", "build_environment"]);

interface TasksEntry {
  records: TaskRecord[];
  stages: StageFigures[];
  /** Per released task, the staged violation traces collect reads (label → sha256). */
  violations: Record<string, Record<string, string>>;
}

function tasksKey(state: BuildStateType, svc: BuildServices): string {
  const ctx = domainContext(state, svc);
  return svc.cache.key(STAGE, { sop: state.sopHash, world: state.worldHash, card: ctx.card, slots: state.slots, strategies: svc.strategies, settings: svc.modelSettings, calibrator: svc.calibrator.settings(ctx) });
}

function stagedFile(state: BuildStateType, task: string, label: string): string {
  return join(stagedViolationsDir(state.paths.generated, state.domain, task), `${label}.json`);
}

/**
 * The records and slot-stage figures of the last build with the same inputs, when its staged
 * violation traces are still there unchanged (collect ships them); null otherwise, and always
 * with --review (a person may change the world during the pause).
 */
export function reusableTasks(state: BuildStateType, svc: BuildServices): Pick<TasksEntry, "records" | "stages"> | null {
  if (state.review) return null;
  const entry = svc.cache.get<TasksEntry>(STAGE, tasksKey(state, svc));
  if (!entry) return null;
  for (const [task, labels] of Object.entries(entry.violations)) {
    for (const [label, hash] of Object.entries(labels)) {
      const file = stagedFile(state, task, label);
      if (!existsSync(file) || sha256(readFileSync(file)) !== hash) return null;
    }
  }
  return { records: entry.records, stages: entry.stages };
}

/**
 * Keep this build's records for the next one (called by collect). Not when they were reused, and
 * not when a model failure dropped an item: the next build must ask the model again.
 */
export function storeTasks(state: BuildStateType, svc: BuildServices, violations: TasksEntry["violations"]): void {
  if (state.reused || state.records.some((r) => modelFailureClass(r.reason) !== null)) return;
  const stages = state.stages.filter((s) => !BEFORE_FAN_OUT.has(s.stage));
  svc.cache.put(STAGE, tasksKey(state, svc), { records: state.records, stages, violations } satisfies TasksEntry);
}
