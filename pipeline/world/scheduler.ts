import type { ScheduledEvent } from "../schemas/index.js";

/**
 * The queue of scheduled events of one episode. `at` events are queued when the episode opens;
 * `after` events are queued when the operation or event they follow happens. Due events come out
 * in order of due time, then of queueing, so firing order is deterministic.
 */
export interface DueEvent {
  event: ScheduledEvent;
  due: number;
  seq: number;
}

export class Scheduler {
  readonly #afterOperation = new Map<string, ScheduledEvent[]>();
  readonly #afterEvent = new Map<string, ScheduledEvent[]>();
  readonly #queue: DueEvent[] = [];
  #seq = 0;

  constructor(events: readonly ScheduledEvent[]) {
    for (const e of events) {
      if (e.at !== undefined) this.#push(e, e.at);
      else if (e.after?.operation !== undefined) push(this.#afterOperation, e.after.operation, e);
      else if (e.after?.event !== undefined) push(this.#afterEvent, e.after.event, e);
    }
  }

  /** An operation executed at `time`: queue the events that follow it. */
  operationExecuted(name: string, time: number): void {
    for (const e of this.#afterOperation.get(name) ?? []) this.#push(e, time + (e.after?.delay ?? 0));
  }

  /** An event fired at `time`: queue the events that follow it. */
  eventFired(id: string, time: number): void {
    for (const e of this.#afterEvent.get(id) ?? []) this.#push(e, time + (e.after?.delay ?? 0));
  }

  /** Remove and return the next event due at or before `until`, or undefined. */
  next(until: number): DueEvent | undefined {
    const head = this.#queue[0];
    if (!head || head.due > until) return undefined;
    return this.#queue.shift();
  }

  /** Events still queued, in firing order (for inspection). */
  pending(): readonly DueEvent[] {
    return this.#queue;
  }

  #push(event: ScheduledEvent, due: number): void {
    const item = { event, due, seq: this.#seq++ };
    // Keep the queue sorted by (due, seq): insert after every item due at or before this one.
    let i = this.#queue.length;
    while (i > 0 && (this.#queue[i - 1] as DueEvent).due > due) i--;
    this.#queue.splice(i, 0, item);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
