import { describe, expect, it } from "vitest";
import { RandomStream } from "../../pipeline/core/random.js";
import { callWithTimeout, LlmTimeoutError } from "../../pipeline/llm/call-timeout.js";
import { classifyError, parseRetryAfter } from "../../pipeline/llm/classify-error.js";
import { AttemptFailure, retryDelay, withRetry, type RetryEvent } from "../../pipeline/llm/retry.js";
import { recordingSleep } from "./helpers.js";

const httpError = (status: number, extra: Record<string, unknown> = {}) => Object.assign(new Error(`HTTP ${status}`), { status, ...extra });

describe("classifyError", () => {
  it("retries 429, 5xx, 408, timeouts and connection failures", () => {
    expect(classifyError(httpError(429))).toEqual({ kind: "rate_limit", retriable: true, status: 429 });
    expect(classifyError(httpError(500))).toEqual({ kind: "server_error", retriable: true, status: 500 });
    expect(classifyError(httpError(529))).toEqual({ kind: "server_error", retriable: true, status: 529 });
    expect(classifyError(httpError(408))).toEqual({ kind: "timeout", retriable: true, status: 408 });
    expect(classifyError({ response: { status: 502 } })).toEqual({ kind: "server_error", retriable: true, status: 502 });
    expect(classifyError(Object.assign(new Error("x"), { status_code: 503 }))).toEqual({ kind: "server_error", retriable: true, status: 503 });
    expect(classifyError(new LlmTimeoutError(100))).toEqual({ kind: "timeout", retriable: true });
    expect(classifyError(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }))).toEqual({ kind: "connection", retriable: true });
    expect(classifyError(new TypeError("fetch failed"))).toEqual({ kind: "connection", retriable: true });
    class APIConnectionError extends Error {}
    expect(classifyError(new APIConnectionError("Connection error."))).toEqual({ kind: "connection", retriable: true });
  });

  it("never retries 400, 401, 403, 404, aborts, quota exhaustion or unknown errors", () => {
    for (const status of [400, 404, 422]) expect(classifyError(httpError(status))).toEqual({ kind: "client_error", retriable: false, status });
    for (const status of [401, 403]) expect(classifyError(httpError(status))).toEqual({ kind: "auth", retriable: false, status });
    expect(classifyError(Object.assign(new Error("stop"), { name: "AbortError" }))).toEqual({ kind: "aborted", retriable: false });
    expect(classifyError(httpError(429, { code: "insufficient_quota" }))).toEqual({ kind: "rate_limit", retriable: false, status: 429 });
    expect(classifyError(new Error("bug in a prompt builder"))).toEqual({ kind: "other", retriable: false });
    expect(classifyError("a string")).toEqual({ kind: "other", retriable: false });
  });

  it("reads Retry-After from Headers objects and plain records, in seconds or as a date", () => {
    expect(classifyError(httpError(429, { headers: new Headers({ "Retry-After": "3" }) })).retryAfterMs).toBe(3000);
    expect(classifyError(httpError(429, { response: { headers: { "Retry-After": "0.5" } } })).retryAfterMs).toBe(500);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});

describe("retryDelay", () => {
  it("grows exponentially with equal jitter from the seeded stream, capped", () => {
    const policy = { retries: 5, baseDelayMs: 1000, maxDelayMs: 4000 };
    const server = { kind: "server_error" as const, retriable: true };
    const a = new RandomStream(7);
    const b = new RandomStream(7);
    const delays = [1, 2, 3, 4].map((n) => retryDelay(n, server, policy, a));
    expect(delays).toEqual([1, 2, 3, 4].map((n) => retryDelay(n, server, policy, b)));
    const steps = [1000, 2000, 4000, 4000];
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual((steps[i] as number) / 2);
      expect(d).toBeLessThanOrEqual(steps[i] as number);
    });
  });

  it("uses the provider's Retry-After as given, up to the cap", () => {
    const policy = { retries: 1, maxRetryAfterMs: 10_000 };
    const random = new RandomStream(1);
    expect(retryDelay(1, { kind: "rate_limit", retriable: true, retryAfterMs: 2500 }, policy, random)).toBe(2500);
    expect(retryDelay(1, { kind: "rate_limit", retriable: true, retryAfterMs: 99_000 }, policy, random)).toBe(10_000);
  });
});

describe("withRetry", () => {
  it("tries max_retries + 1 times on retriable errors, waiting through the injected sleep", async () => {
    const { sleep, waits } = recordingSleep();
    const events: RetryEvent[] = [];
    let calls = 0;
    const err = await withRetry(
      async () => {
        calls++;
        throw httpError(503);
      },
      { policy: { retries: 3 }, random: new RandomStream(3), sleep, onRetry: (e) => events.push(e) },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AttemptFailure);
    expect((err as AttemptFailure).attempts).toBe(4);
    expect((err as AttemptFailure).failure).toEqual({ kind: "server_error", retriable: true, status: 503 });
    expect(calls).toBe(4);
    expect(waits).toHaveLength(3);
    expect(events.map((e) => [e.attempt, e.delayMs])).toEqual(waits.map((w, i) => [i + 1, w]));
  });

  it("stops at once on an error that retrying cannot fix", async () => {
    const { sleep, waits } = recordingSleep();
    let calls = 0;
    const err = await withRetry(
      async () => {
        calls++;
        throw httpError(404);
      },
      { policy: { retries: 3 }, random: new RandomStream(3), sleep },
    ).catch((e: unknown) => e);
    expect((err as AttemptFailure).attempts).toBe(1);
    expect((err as AttemptFailure).failure.status).toBe(404);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it("returns the first success", async () => {
    const { sleep } = recordingSleep();
    let calls = 0;
    const v = await withRetry(
      async (n) => {
        calls++;
        if (n < 3) throw Object.assign(new Error("reset"), { code: "ECONNRESET" });
        return `attempt ${n}`;
      },
      { policy: { retries: 3 }, random: new RandomStream(3), sleep },
    );
    expect(v).toBe("attempt 3");
    expect(calls).toBe(3);
  });
});

describe("callWithTimeout", () => {
  it("rejects with a timeout even when the call ignores its signal", async () => {
    const started = performance.now();
    const err = await callWithTimeout(() => new Promise(() => {}), 100).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmTimeoutError);
    expect((err as Error).message).toBe("no answer within 100 ms");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("aborts the call's signal on timeout and passes an outer abort through", async () => {
    let seen: AbortSignal | undefined;
    await callWithTimeout((signal) => {
      seen = signal;
      return new Promise(() => {});
    }, 100).catch(() => undefined);
    expect(seen?.aborted).toBe(true);
    const outer = new AbortController();
    const pending = callWithTimeout(() => new Promise(() => {}), 10_000, outer.signal);
    outer.abort(new Error("build cancelled"));
    await expect(pending).rejects.toThrow("build cancelled");
  });

  it("returns the call's value when it answers in time", async () => {
    await expect(callWithTimeout(async () => 42, 100)).resolves.toBe(42);
  });
});
