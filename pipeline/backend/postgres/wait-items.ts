import { FoundryError } from "../../core/errors.js";
import type { Database } from "./database.js";
import { itemProgress } from "./item-states.js";
import { jobId } from "./queue.js";
import { readResults, type StoredResult } from "./results-store.js";

/** A line of progress across every worker, e.g. `12/40 done, 3 leased (host-1-77: 2, host-2-12: 1), 25 waiting`. */
export function progressLine(done: number, total: number, leased: Record<string, number>, waiting: number, failed: number): string {
  const n = Object.values(leased).reduce((a, b) => a + b, 0);
  const who = Object.entries(leased).sort(([a], [b]) => (a < b ? -1 : 1)).map(([w, c]) => `${w}: ${c}`).join(", ");
  return `${done}/${total} done, ${n} leased${n ? ` (${who})` : ""}, ${waiting} waiting${failed ? `, ${failed} failed` : ""}`;
}

export interface WaitOptions {
  db: Database;
  queue: string;
  /** Idempotency keys of the items waited for. */
  keys: readonly string[];
  /** Called once per result as it appears. */
  onResult(r: StoredResult): void | Promise<void>;
  /** A progress line when the picture changes. */
  onProgress?: (line: string) => void;
  /** What to tell the user to do when items failed for good. */
  rerun: string;
  pollMs?: number;
}

/**
 * Wait until every item has its result, handing each result over as it appears and reporting
 * progress across all workers. Items whose retries are spent stop the wait with QUEUE_ITEMS_FAILED,
 * naming each and its last error (results already handed over are kept).
 */
export async function waitForItems(o: WaitOptions): Promise<void> {
  const seen = new Set<string>();
  const ids = o.keys.map(jobId);
  let last = "";
  for (;;) {
    for (const r of await readResults(o.db, o.keys, seen)) {
      seen.add(r.key);
      await o.onResult(r);
    }
    if (seen.size === o.keys.length) {
      o.onProgress?.(progressLine(seen.size, o.keys.length, {}, 0, 0));
      return;
    }
    const p = await itemProgress(o.db, o.queue, ids);
    const failed = p.failed.filter((f) => !seen.has(f.key));
    const line = progressLine(seen.size, o.keys.length, p.leased, p.waiting, failed.length);
    if (line !== last) o.onProgress?.(line);
    last = line;
    if (failed.length > 0 && Object.keys(p.leased).length === 0 && p.waiting === 0) {
      // A result may have landed between the two reads: look once more before giving up.
      if ((await readResults(o.db, failed.map((f) => f.key))).length === 0) {
        const list = failed.map((f) => `${f.item}: ${f.message}`).join("; ");
        throw new FoundryError("QUEUE_ITEMS_FAILED", `${failed.length} item(s) failed after their retries (${list}); fix the cause, then \`synth queue retry-failed\` and ${o.rerun}`, {}, failed.map((f) => f.item));
      }
    }
    await new Promise((r) => setTimeout(r, o.pollMs ?? 300));
  }
}
