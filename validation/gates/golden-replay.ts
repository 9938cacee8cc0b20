import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { FoundryError, quote } from "../../pipeline/core/errors.js";
import { replay } from "../../pipeline/world/replay.js";
import { initialStateFor } from "../initial-states.js";
import { judge } from "../judge.js";
import { parseTrace } from "../parse-trace.js";
import { failed, passed, type GateOutcome } from "./types.js";

/**
 * Gate 1: the golden trace parses, belongs to the task, replays from the task's initial state event
 * by event (same statuses, results, changes, times, final state), and passes every check.
 */
export function goldenReplayGate(ctx: DomainContext, task: Task, golden: unknown): GateOutcome & { trace: Trace | null } {
  let trace: Trace;
  try {
    trace = parseTrace(golden, "golden trace");
  } catch (e) {
    if (!FoundryError.is(e)) throw e;
    return { ...failed("golden_replay", `${e.code}: ${e.message}`, { check: null, event: null, code: "golden_invalid" }), trace: null };
  }
  if (trace.task !== task.id) {
    return { ...failed("golden_replay", `the golden trace is of task ${quote(trace.task)}, not ${quote(task.id)}`, { check: null, event: null, code: "golden_invalid" }), trace: null };
  }
  const r = replay(trace, ctx.world, initialStateFor(ctx, task), task, ctx.documents);
  const m = r.mismatches[0];
  if (m) {
    const at = m.index > 0 ? `event ${m.index}` : "the trace";
    const detail = `replay differs at ${at}, field ${m.field}: recorded ${quote(m.recorded)}, replayed ${quote(m.replayed)}${r.mismatches.length > 1 ? ` (${r.mismatches.length} differences)` : ""}`;
    return { ...failed("golden_replay", detail, { check: null, event: m.index > 0 ? m.index : null, code: "replay_mismatch" }), trace };
  }
  const j = judge(ctx, task, trace);
  const bad = j.results.find((x) => !x.passed);
  if (bad) {
    const detail = `the golden trace fails check ${bad.check}: ${bad.reason}${j.failed.length > 1 ? ` (failed: ${j.failed.join(", ")})` : ""}`;
    return { ...failed("golden_replay", detail, { check: bad.check, event: firstBadCall(trace) ?? bad.event, code: "golden_check_failed" }), trace };
  }
  return { ...passed("golden_replay", `replayed ${trace.events.length} events identically; all ${j.results.length} checks pass`), trace };
}

/** The first call of the golden trace that was rejected or errored: usually what made a check fail. */
function firstBadCall(trace: Trace): number | null {
  return trace.events.find((e) => e.actor === "agent" && (e.status === "rejected" || e.status === "errored"))?.index ?? null;
}
