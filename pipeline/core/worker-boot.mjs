// Worker bootstrap for a worker thread whose entry may be TypeScript: worker threads do not
// inherit tsx's loader hooks on Node 20, so register them before loading a `.ts` entry (compiled
// `.js` entries load directly). The entry is `workerData.entry`, a file URL.
import { workerData } from "node:worker_threads";

if (String(workerData.entry).endsWith(".ts")) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(workerData.entry);
