import { Worker } from "node:worker_threads";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { DocumentOutline } from "./outline-types.js";
import type { FromWorker, ToWorker } from "./ingest-worker.js";

const BOOT = new URL("./ingest-worker-boot.mjs", import.meta.url);
const ENTRY = new URL(import.meta.url.endsWith(".ts") ? "./ingest-worker.ts" : "./ingest-worker.js", import.meta.url).href;

/**
 * Outline many texts on several threads: `workers` worker threads plus the calling thread take
 * chunks from one queue, so the work is balanced and the workers' start-up time is not lost
 * (the calling thread starts at once). Results come back in input order.
 */
export async function outlineInParallel(
  texts: readonly string[],
  outline: (text: string) => DocumentOutline,
  opts: { workers: number; chunkSize?: number },
): Promise<DocumentOutline[]> {
  const chunkSize = opts.chunkSize ?? 8;
  const results: DocumentOutline[] = new Array(texts.length);
  const queue: number[] = [];
  for (let i = 0; i < texts.length; i += chunkSize) queue.push(i);
  const slice = (start: number) => texts.slice(start, start + chunkSize);
  const inFlight = new Map<Worker, number>();
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const workers: Worker[] = [];
  const dispatch = (w: Worker) => {
    const start = queue.shift();
    if (start === undefined) return;
    inFlight.set(w, start);
    w.postMessage({ type: "job", id: start, texts: slice(start) } satisfies ToWorker);
  };
  for (let i = 0; i < opts.workers; i++) {
    const w = new Worker(BOOT, { workerData: { entry: ENTRY } });
    workers.push(w);
    w.on("message", (m: FromWorker) => {
      if (m.type === "done") {
        m.outlines.forEach((o, k) => {
          results[m.id + k] = o;
        });
        inFlight.delete(w);
      }
      dispatch(w);
      notify();
    });
    const lost = () => {
      // A failed worker's chunk goes back to the queue; the calling thread finishes it.
      const start = inFlight.get(w);
      if (start !== undefined) queue.unshift(start);
      inFlight.delete(w);
      notify();
    };
    w.on("error", lost);
    w.on("exit", lost);
  }
  try {
    for (;;) {
      const start = queue.shift();
      if (start !== undefined) {
        slice(start).forEach((t, k) => {
          results[start + k] = outline(t);
        });
        // Let worker messages in between chunks.
        await nextTurn();
        continue;
      }
      if (inFlight.size === 0) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
