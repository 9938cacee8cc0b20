import PQueue from "p-queue";

/** Limits of every provider queue. */
export interface ProviderQueueOptions {
  /** Calls in flight per provider (config `concurrency`). */
  concurrency: number;
  /** Rate-limit window in ms (config `rate_interval_ms`); 0 means no rate limit. */
  intervalMs: number;
  /** Calls that may start per window when `intervalMs` > 0. Default 1. */
  intervalCap?: number;
}

/** What one provider's queue is doing, for stats and tests. */
export interface ProviderQueueStats {
  concurrency: number;
  /** Calls running now. */
  inFlight: number;
  /** Calls waiting for a slot. */
  waiting: number;
  /** Most calls ever seen running at once. */
  maxInFlight: number;
  /** Calls that have finished (either way). */
  completed: number;
}

interface Slot {
  queue: PQueue;
  inFlight: number;
  maxInFlight: number;
  completed: number;
}

/**
 * One p-queue per provider, shared by every role that uses that provider, so two roles on
 * `openai:` together stay within one concurrency and rate budget. Owned by one runtime (no
 * module-level state), so tests and workers each get their own.
 */
export class ProviderQueues {
  readonly #options: Required<ProviderQueueOptions>;
  readonly #slots = new Map<string, Slot>();

  constructor(options: ProviderQueueOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`Expected \`concurrency\` to be a whole number from 1 and up, got \`${options.concurrency}\``);
    }
    if (!Number.isInteger(options.intervalMs) || options.intervalMs < 0) {
      throw new RangeError(`Expected \`intervalMs\` to be a whole number from 0 and up, got \`${options.intervalMs}\``);
    }
    const intervalCap = options.intervalCap ?? 1;
    if (!Number.isInteger(intervalCap) || intervalCap < 1) {
      throw new RangeError(`Expected \`intervalCap\` to be a whole number from 1 and up, got \`${intervalCap}\``);
    }
    this.#options = { concurrency: options.concurrency, intervalMs: options.intervalMs, intervalCap };
  }

  /** Run `task` in `provider`'s queue; an aborted `signal` removes a waiting task from the queue. */
  run<T>(provider: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const slot = this.#slot(provider);
    return slot.queue.add(
      async () => {
        slot.inFlight++;
        if (slot.inFlight > slot.maxInFlight) slot.maxInFlight = slot.inFlight;
        try {
          return await task();
        } finally {
          slot.inFlight--;
          slot.completed++;
        }
      },
      signal ? { signal } : {},
    );
  }

  /** Stats of every provider queue used so far, by provider name. */
  stats(): Record<string, ProviderQueueStats> {
    const out: Record<string, ProviderQueueStats> = {};
    for (const provider of [...this.#slots.keys()].sort()) {
      const s = this.#slots.get(provider) as Slot;
      out[provider] = { concurrency: this.#options.concurrency, inFlight: s.inFlight, waiting: s.queue.size, maxInFlight: s.maxInFlight, completed: s.completed };
    }
    return out;
  }

  /** Resolves when every queue is empty and idle. */
  async onIdle(): Promise<void> {
    await Promise.all([...this.#slots.values()].map((s) => s.queue.onIdle()));
  }

  #slot(provider: string): Slot {
    let slot = this.#slots.get(provider);
    if (!slot) {
      const { concurrency, intervalMs, intervalCap } = this.#options;
      const queue = intervalMs > 0 ? new PQueue({ concurrency, interval: intervalMs, intervalCap }) : new PQueue({ concurrency });
      slot = { queue, inFlight: 0, maxInFlight: 0, completed: 0 };
      this.#slots.set(provider, slot);
    }
    return slot;
  }
}
