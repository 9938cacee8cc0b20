import type { Task, Trace } from "../schemas/index.js";
import type { DomainContext } from "../world/domain-context.js";
import type { Diagnosis } from "../agents/types.js";
import { applyOverlay } from "../world/build-state.js";
import { replay } from "../world/replay.js";
import { createCheckContext } from "../world/check-context.js";
import { runChecks, strictSuccess } from "../../validation/checks/index.js";

/**
 * The gates a task must pass before it can be released: its golden trace replays identically from
 * the initial state and passes every check, and a do-nothing trace fails its goal. Returns the first
 * failure as a diagnosis (gate, check, event), or null when the task holds.
 */
export function verifyTask(ctx: DomainContext, task: Task, golden: Trace): Diagnosis | null {
  const initial = task.initial_state.length > 0 ? applyOverlay(ctx.base, ctx.world, task.initial_state, `task ${task.id}`) : ctx.base;
  const replayed = replay(golden, ctx.world, initial, task, ctx.documents);
  const first = replayed.mismatches[0];
  if (first) return { gate: "golden_replay", check: null, event: first.index, detail: `event ${first.index} ${first.field} differs on replay` };
  const cctx = createCheckContext(ctx.world, task, initial);
  try {
    const results = runChecks(task, golden, cctx);
    const failed = results.find((r) => !r.passed);
    if (failed) return { gate: "golden_replay", check: failed.check, event: failed.event, detail: `golden trace fails ${failed.check}: ${failed.reason}` };
    const nothing: Trace = { ...golden, role: "violation", label: "do_nothing", events: golden.events.filter((e) => e.index === 1), final_state_hash: golden.initial_state_hash, clock_end: 0 };
    if (strictSuccess(runChecks(task, nothing, cctx)).goal) return { gate: "violations", check: null, event: null, detail: "a do-nothing trace passes the goal checks" };
    return null;
  } finally {
    cctx.close();
  }
}
