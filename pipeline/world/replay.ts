import type { Trace, TraceEvent, WorldModel } from "../schemas/index.js";
import { jsonEqual } from "./deep-equal.js";
import type { InitialState } from "./build-state.js";
import type { CompiledWorld } from "./compile-world.js";
import { Episode, type EpisodeTask } from "./episode.js";
import type { KnowledgeDocument } from "./documents-tool.js";
import type { Isolation } from "./connection.js";
import type { Invoke, ToolOutcome } from "./types.js";

/**
 * Replay: re-run a trace's actions (agent and customer calls, waits, dialogue) on a fresh copy of
 * the initial state and compare what happens, event by event. Scheduled events are not actions:
 * the replayed waits fire them again, and they are compared like every other event.
 *
 * Faults are reproduced from the trace, not re-drawn: an explicit fault (kind `fault`) runs nothing
 * and returns the recorded result; an implicit fault runs the call and returns the recorded
 * (degraded) result, so only its status and changes are checked against the run.
 */

export interface ReplayMismatch {
  /** Event index (1-based); 0 for trace-level fields. */
  index: number;
  field: string;
  recorded: unknown;
  replayed: unknown;
}

export interface ReplayResult {
  ok: boolean;
  trace: Trace;
  mismatches: ReplayMismatch[];
}

const COMPARED = ["kind", "name", "actor", "time", "status", "reason", "result", "changes", "proposal_id"] as const;


export interface ReplayOptions {
  /** How the replay's episode is isolated; default `reuse` (a pooled connection rolled back to s0 afterwards, see connection.ts). */
  isolation?: Isolation;
}

/** Replay `trace` from `initial`; `ok` when every event and the final state hash match. */
export function replay(
  trace: Trace,
  world: WorldModel | CompiledWorld,
  initial: InitialState,
  task: EpisodeTask,
  documents: readonly KnowledgeDocument[] = [],
  options: ReplayOptions = {},
): ReplayResult {
  let current: TraceEvent | undefined;
  const wrap = (inner: Invoke): Invoke => (call) => {
    const fault = current?.fault;
    if (!current || !fault) return inner(call);
    if (fault.mode === "explicit") return { status: "faulted", result: current.result, changes: [], fault, ...(current.reason !== undefined ? { reason: current.reason } : {}) };
    const ran = inner(call);
    const out: ToolOutcome = { ...ran, status: "faulted", result: current.result, fault };
    return out;
  };
  const episode = Episode.open(initial, world, {
    task,
    documents,
    wrap,
    role: trace.role,
    label: trace.label,
    condition: trace.condition,
    seed: trace.seed,
    isolation: options.isolation ?? "reuse",
  });
  try {
    for (const e of trace.events) {
      current = e;
      switch (e.kind) {
        case "scheduled_event":
          break;
        case "customer_message":
        case "agent_message":
          episode.say(e.actor === "customer" ? "customer" : "agent", e.text ?? "", e.facts);
          break;
        case "wait":
          // A wait that errored (bad minutes) is replayed as the same bad call.
          episode.invoke({ name: "wait", args: e.args, actor: e.actor === "customer" ? "customer" : "agent" });
          break;
        default:
          episode.invoke({ name: e.name, args: e.args, actor: e.actor === "customer" ? "customer" : "agent" });
      }
    }
    current = undefined;
    const replayed = episode.finish();
    const mismatches = compare(trace, replayed);
    return { ok: mismatches.length === 0, trace: replayed, mismatches };
  } finally {
    episode.close();
  }
}

function compare(recorded: Trace, replayed: Trace): ReplayMismatch[] {
  const out: ReplayMismatch[] = [];
  if (recorded.initial_state_hash !== replayed.initial_state_hash) {
    out.push({ index: 0, field: "initial_state_hash", recorded: recorded.initial_state_hash, replayed: replayed.initial_state_hash });
  }
  const n = Math.max(recorded.events.length, replayed.events.length);
  for (let i = 0; i < n; i++) {
    const a = recorded.events[i];
    const b = replayed.events[i];
    if (!a || !b) {
      out.push({ index: i + 1, field: "event", recorded: a ?? null, replayed: b ?? null });
      continue;
    }
    for (const f of COMPARED) {
      // The result of an implicit fault is the recorded degradation by construction: not evidence.
      if (f === "result" && a.fault?.mode === "implicit") continue;
      if (!jsonEqual(a[f], b[f])) out.push({ index: a.index, field: f, recorded: a[f], replayed: b[f] });
    }
  }
  if (recorded.final_state_hash !== replayed.final_state_hash) {
    out.push({ index: 0, field: "final_state_hash", recorded: recorded.final_state_hash, replayed: replayed.final_state_hash });
  }
  if (recorded.clock_end !== replayed.clock_end) out.push({ index: 0, field: "clock_end", recorded: recorded.clock_end, replayed: replayed.clock_end });
  return out;
}
