/** A model call that did not answer within its time bound. Named like p-queue's and LangChain's so classifiers agree. */
export class LlmTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = "TimeoutError";
  }
}

/**
 * Run `call` with an AbortSignal that fires after `timeoutMs` or when `outer` aborts. The returned
 * promise settles at that moment even if the call ignores its signal, so a model that never
 * answers cannot hang the build; the abandoned call's late result or error is dropped.
 */
export function callWithTimeout<T>(call: (signal: AbortSignal) => Promise<T>, timeoutMs: number, outer?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  if (outer?.aborted) return Promise.reject(outer.reason);
  return new Promise<T>((resolve, reject) => {
    const onOuterAbort = (): void => controller.abort(outer?.reason);
    const timer = setTimeout(() => controller.abort(new LlmTimeoutError(timeoutMs)), timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    };
    // Registered before the call starts, so the abort reason wins over whatever the call throws when aborted.
    controller.signal.addEventListener("abort", () => {
      done();
      reject(controller.signal.reason);
    }, { once: true });
    outer?.addEventListener("abort", onOuterAbort, { once: true });
    let running: Promise<T>;
    try {
      running = call(controller.signal);
    } catch (e) {
      running = Promise.reject(e);
    }
    running.then(
      (v) => {
        done();
        resolve(v);
      },
      (e) => {
        done();
        reject(e);
      },
    );
  });
}
