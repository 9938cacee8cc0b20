import type { RowChange, Trace, TraceEvent } from "../schemas/index.js";
import { canonicalJsonFast, sha256Hex } from "./canonical-order.js";
import type { ToolOutcome } from "./types.js";
import { boundArgs, boundResult } from "./trace-bounds.js";

/**
 * Builds the trace τ = (s0, e1, s1, …, eT, sT) while an episode runs. Every event gets its 1-based
 * index, logical time, kind, status and the rows it changed. `state_hash` is a chain: the hash of
 * s_i is sha256 of the hash of s_{i-1} followed, for each of e_i's changes in order, by a newline and
 * `JSON(table),JSON(key),canonicalJSON(after)`; an event that changes nothing keeps the previous
 * hash. (`before` images are left out: given s_{i-1} they are implied.) It is cheap (no table scan) and deterministic; it identifies the sequence
 * of changes from s0, so two different histories that happen to end in equal data hash differently
 * (use Episode.contentHash() to compare data).
 */

export interface TraceMeta {
  task: string;
  role: Trace["role"];
  label?: string;
  condition?: Trace["condition"];
  seed: number;
  /** Content hash of s0 (InitialState.hash). */
  initial_state_hash: string;
}

/** A line of dialogue, with the ids of the customer's private facts it discloses. */
export interface DialogueMessage {
  actor: "agent" | "customer";
  text: string;
  facts: string[];
}

/** A dialogue event to record: `say("customer", "The invoice is INV-77", ["invoice_ref"])`. */
export function say(actor: "agent" | "customer", text: string, facts: readonly string[] = []): DialogueMessage {
  return { actor, text, facts: [...facts] };
}

/** Chain hash of the state after an event with these changes. */
export function nextStateHash(prev: string, changes: readonly RowChange[]): string {
  if (changes.length === 0) return prev;
  let text = prev;
  for (const c of changes) text += `\n${JSON.stringify(c.table)},${JSON.stringify(c.key)},${c.after === null ? "null" : canonicalJsonFast(c.after)}`;
  return sha256Hex(text);
}

export interface CallRecord {
  time: number;
  kind: TraceEvent["kind"];
  actor: TraceEvent["actor"];
  name: string;
  args: Record<string, unknown>;
  outcome: ToolOutcome;
}

export class TraceRecorder {
  readonly meta: TraceMeta;
  readonly #events: TraceEvent[] = [];
  #hash: string;

  constructor(meta: TraceMeta) {
    this.meta = meta;
    this.#hash = meta.initial_state_hash;
  }

  /** Index the next recorded event will get (what `:call` binds to). */
  get nextIndex(): number {
    return this.#events.length + 1;
  }

  /** Chain hash of the current state. */
  get stateHash(): string {
    return this.#hash;
  }

  get events(): readonly TraceEvent[] {
    return this.#events;
  }

  /**
   * Record a call, a wait or a scheduled event from its outcome. An outcome carrying an explicit
   * fault is recorded with kind `fault` (nothing ran); an implicit fault keeps the call's kind with
   * status `faulted` (it ran; what the caller saw was degraded).
   */
  recordCall(rec: CallRecord): TraceEvent {
    // What the trace keeps is bounded (trace-bounds.ts): over-long arguments and results become cut markers.
    const o = rec.outcome;
    const kind = o.fault?.mode === "explicit" ? "fault" : rec.kind;
    const event: TraceEvent = {
      index: this.nextIndex,
      time: rec.time,
      kind,
      actor: rec.actor,
      name: rec.name,
      args: boundArgs(rec.args).args,
      status: o.status,
      changes: o.changes,
      facts: [],
    };
    if (o.result !== undefined) event.result = boundResult(o.result);
    if (o.reason !== undefined) event.reason = o.reason;
    if (o.proposal_id !== undefined) event.proposal_id = o.proposal_id;
    if (o.fault !== undefined) event.fault = o.fault;
    if (o.simulated) event.simulated = true;
    return this.#push(event);
  }

  /** Hybrid evaluation: the response text the simulator rendered for the agent from call event `index`'s result. */
  recordRendering(index: number, text: string): void {
    const event = this.#events[index - 1];
    if (!event || event.kind === "customer_message" || event.kind === "agent_message") throw new RangeError(`trace event ${index} is not a call`);
    event.rendered = text;
  }

  /** Record a line of dialogue (`customer_message` or `agent_message`). */
  recordMessage(time: number, msg: DialogueMessage): TraceEvent {
    return this.#push({
      index: this.nextIndex,
      time,
      kind: msg.actor === "customer" ? "customer_message" : "agent_message",
      actor: msg.actor,
      name: "message",
      args: {},
      status: "executed",
      text: msg.text,
      changes: [],
      facts: [...msg.facts],
    });
  }

  /** The finished trace (a snapshot; recording may continue afterwards). */
  finish(clockEnd: number): Trace {
    return {
      task: this.meta.task,
      role: this.meta.role,
      label: this.meta.label ?? "",
      condition: this.meta.condition ?? "E0",
      seed: this.meta.seed,
      initial_state_hash: this.meta.initial_state_hash,
      events: [...this.#events],
      final_state_hash: this.#hash,
      clock_end: clockEnd,
    };
  }

  #push(event: TraceEvent): TraceEvent {
    this.#hash = nextStateHash(this.#hash, event.changes);
    event.state_hash = this.#hash;
    this.#events.push(event);
    return event;
  }
}
