// Worker-thread entry of the demo's evaluation (started by demo-evaluation-thread.ts through
// pipeline/core/worker-boot.mjs): runs runDemoEvaluations on the committed release and posts its
// rows, table and markdown back, or the error's message.
import { parentPort, workerData } from "node:worker_threads";
import { demoConfig } from "./demo-config.js";
import { runDemoEvaluations } from "./demo-evaluation.js";

const { release, releasesRoot, generated } = workerData as { entry: string; release: string; releasesRoot: string; generated: string };
try {
  const result = await runDemoEvaluations({ release, releasesRoot, generated, config: demoConfig() });
  parentPort?.postMessage({ ok: true, result });
} catch (e) {
  parentPort?.postMessage({ ok: false, message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
}
