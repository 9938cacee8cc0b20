import { parentPort } from "node:worker_threads";
import { createOutliner } from "./outline-document.js";

/** Messages between the ingestion pool and its workers. */
export type ToWorker = { type: "job"; id: number; texts: string[] };
export type FromWorker = { type: "ready" } | { type: "done"; id: number; outlines: ReturnType<ReturnType<typeof createOutliner>>[] };

const port = parentPort;
if (port) {
  const outline = createOutliner();
  port.on("message", (m: ToWorker) => {
    if (m.type === "job") port.postMessage({ type: "done", id: m.id, outlines: m.texts.map(outline) } satisfies FromWorker);
  });
  port.postMessage({ type: "ready" } satisfies FromWorker);
}
