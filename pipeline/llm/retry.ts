import pRetry, { AbortError } from "p-retry";
import type { RandomStream } from "../core/random.js";
import { classifyError, type FailureClass } from "./classify-error.js";

/** Waits `ms`; rejects with the signal's reason if it aborts first. Injected so tests never sleep. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Real timer sleep (the default outside tests). */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** How a call is retried. */
export interface RetryPolicy {
  /** Retries after the first attempt (config `max_retries`). */
  retries: number;
  /** First backoff step in ms. Default 500. */
  baseDelayMs?: number;
  /** Ceiling of one backoff step in ms. Default 20,000. */
  maxDelayMs?: number;
  /** Ceiling of a provider's Retry-After in ms, so one header cannot stall a build. Default 60,000. */
  maxRetryAfterMs?: number;
}

/** One retry about to happen. */
export interface RetryEvent {
  /** The attempt that failed (1-based). */
  attempt: number;
  failure: FailureClass;
  delayMs: number;
  error: unknown;
}

/** The last failure of a call that will not be tried again. */
export class AttemptFailure extends Error {
  constructor(
    readonly original: unknown,
    readonly failure: FailureClass,
    readonly attempts: number,
  ) {
    super(original instanceof Error ? original.message : String(original));
    this.name = "AttemptFailure";
  }
}

/**
 * Wait before retry number `retry` (1-based): the provider's Retry-After when it sent one (capped),
 * otherwise exponential backoff with equal jitter drawn from a seeded stream.
 */
export function retryDelay(retry: number, failure: FailureClass, policy: RetryPolicy, random: RandomStream): number {
  if (failure.retryAfterMs !== undefined) return Math.min(failure.retryAfterMs, policy.maxRetryAfterMs ?? 60_000);
  const step = Math.min(policy.maxDelayMs ?? 20_000, (policy.baseDelayMs ?? 500) * 2 ** (retry - 1));
  return Math.round(step / 2 + random.float() * (step / 2));
}

/**
 * Run `attempt` until it succeeds, fails with an error that retrying cannot fix (400, 401, 403,
 * 404, an abort, an unknown error), or the retries run out. Always rejects with an AttemptFailure.
 */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  opts: { policy: RetryPolicy; random: RandomStream; sleep: Sleep; now?: () => number; signal?: AbortSignal; onRetry?: (e: RetryEvent) => void },
): Promise<T> {
  const now = opts.now ?? Date.now;
  let attempts = 0;
  try {
    return await pRetry(
      async (n) => {
        attempts = n;
        try {
          return await attempt(n);
        } catch (error) {
          const failure = classifyError(error, now());
          const wrapped = new AttemptFailure(error, failure, n);
          throw failure.retriable ? wrapped : new AbortError(wrapped);
        }
      },
      {
        retries: opts.policy.retries,
        // p-retry's own timer and Math.random jitter stay off: the wait happens below, seeded and injectable.
        minTimeout: 0,
        factor: 1,
        randomize: false,
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          if (retriesLeft <= 0 || !(error instanceof AttemptFailure)) return;
          const delayMs = retryDelay(attemptNumber, error.failure, opts.policy, opts.random);
          opts.onRetry?.({ attempt: attemptNumber, failure: error.failure, delayMs, error: error.original });
          if (delayMs > 0) await opts.sleep(delayMs, opts.signal);
        },
      },
    );
  } catch (e) {
    if (e instanceof AttemptFailure) throw e;
    // An abort during the backoff wait.
    throw new AttemptFailure(e, classifyError(e, now()), attempts);
  }
}
