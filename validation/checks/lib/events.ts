import type { Trace, TraceEvent } from "../../../pipeline/schemas/index.js";
import { sameValue } from "./values.js";

/**
 * Event kinds that are calls of an operation (by the agent or the customer). The runtime records a
 * call replaced by an explicit fault as kind `fault` under the call's name: still an attempt.
 */
const CALL_KINDS: ReadonlySet<string> = new Set(["tool_call", "proposal", "approval", "customer_action", "fault"]);

/**
 * Whether an event's effects are part of the state: executed calls, scheduled events that ran, and
 * implicit faults (the call ran, only its response was degraded). Rejected, errored and explicitly
 * faulted events never change the state, whatever their `changes` say.
 */
export function changedState(e: TraceEvent): boolean {
  if (e.status === "executed") return true;
  return e.status === "faulted" && e.fault?.mode === "implicit";
}

/** True when the event is a call of `operation` (any status). */
export function isCallOf(e: TraceEvent, operation: string): boolean {
  return CALL_KINDS.has(e.kind) && e.name === operation;
}

/** True when every key of `subset` is in `args` with the same value. */
export function argsMatch(args: Record<string, unknown>, subset: Record<string, unknown>): boolean {
  return Object.keys(subset).every((k) => Object.hasOwn(args, k) && sameValue(args[k], subset[k]));
}

export interface ExecutionFilter {
  args?: Record<string, unknown>;
  actor?: "agent" | "customer";
  /** Leave out `proposal` events: recording terms for approval is not doing the action. */
  excludeProposals?: boolean;
}

/** Calls of `operation` that ran (executed or implicitly faulted), in trace order. */
export function executions(trace: Trace, operation: string, filter: ExecutionFilter = {}): TraceEvent[] {
  return trace.events.filter(
    (e) =>
      isCallOf(e, operation) &&
      changedState(e) &&
      !(filter.excludeProposals && e.kind === "proposal") &&
      (filter.actor === undefined || e.actor === filter.actor) &&
      argsMatch(e.args, filter.args ?? {}),
  );
}

/** `event 7 (release_payment)`: how every reason names an event. */
export function eventRef(e: Pick<TraceEvent, "index" | "name">): string {
  return `event ${e.index} (${e.name})`;
}

/** `events 2, 5, 8` / `event 2` for lists of events. */
export function eventList(events: readonly Pick<TraceEvent, "index">[]): string {
  if (events.length === 1) return `event ${events[0]?.index}`;
  return `events ${events.map((e) => e.index).join(", ")}`;
}

/** What an attempt that did not run ended as: `rejected (reason)`, `faulted (timeout)`. */
export function outcomeText(e: TraceEvent): string {
  if (e.status === "faulted") return `faulted (${e.fault?.type ?? "fault"})`;
  if (e.status === "executed") return "executed";
  return e.reason ? `${e.status} (${e.reason})` : e.status;
}
