import { Worker } from "node:worker_threads";
import type { runDemoEvaluations } from "./demo-evaluation.js";

const BOOT = new URL("../../core/worker-boot.mjs", import.meta.url);
const ENTRY = new URL(import.meta.url.endsWith(".ts") ? "./demo-evaluation-worker.ts" : "./demo-evaluation-worker.js", import.meta.url).href;

type Evaluation = Awaited<ReturnType<typeof runDemoEvaluations>>;

/**
 * runDemoEvaluations on a worker thread, so that the evaluation of the committed release (which
 * needs nothing from the build) uses the second core while the main thread builds the domains.
 * `result` resolves with what runDemoEvaluations returns and rejects with the worker's error;
 * `stop()` ends the thread (when the build failed and its result is no longer wanted).
 */
export function runDemoEvaluationsInThread(opts: { release: string; releasesRoot: string; generated: string }): { result: Promise<Evaluation>; stop: () => Promise<number> } {
  const worker = new Worker(BOOT, { workerData: { entry: ENTRY, ...opts } });
  const result = new Promise<Evaluation>((resolve, reject) => {
    let settled = false;
    worker.once("message", (m: { ok: true; result: Evaluation } | { ok: false; message: string }) => {
      settled = true;
      if (m.ok) resolve(m.result);
      else reject(new Error(`the demo's evaluation failed: ${m.message}`));
    });
    worker.once("error", (e) => {
      settled = true;
      reject(e);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the demo's evaluation thread exited with code ${code} before it reported`));
    });
  });
  result.catch(() => undefined); // awaited by the caller; this only keeps an early failure from being unhandled meanwhile
  return { result, stop: () => worker.terminate() };
}
