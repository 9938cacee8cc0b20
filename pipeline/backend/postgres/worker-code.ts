import { codeFingerprint } from "../../build/code-fingerprint.js";

/** The worker's entry module: its import closure is every line of code an item can run. */
const WORKER_ENTRY = "pipeline/backend/postgres/item-handlers.ts";

/**
 * Fingerprint of the code that runs queue items (evaluator, world, validation, the build's per-slot
 * graph). It names the queues, so a worker only takes items its own code would produce the same
 * bytes for; a worker of another revision leaves them for one of this revision.
 */
export function workerCode(): string {
  return codeFingerprint([WORKER_ENTRY]);
}
