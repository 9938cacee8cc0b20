import type { Command } from "commander";
import Table from "cli-table3";
import { resolveConfig } from "../../core/config.js";
import type { QueueStatus } from "../../backend/postgres/queue-status.js";
import { backendFlags, withBackendOptions, type BackendFlags } from "../backend-options.js";

/** The status as a person reads it. */
export function renderQueueStatus(s: QueueStatus): string {
  const queues = new Table({ head: ["queue", "kind", "code", "waiting", "leased", "done", "failed"] });
  for (const q of s.queues) queues.push([q.queue, q.kind, `${q.code}${q.this_code ? " (this synth)" : ""}`, q.waiting, q.leased, q.done, q.failed]);
  const workers = new Table({ head: ["worker", "host", "pid", "state", "last seen", "leased", "done", "failed", "lease expired"] });
  for (const w of s.workers) workers.push([w.worker, w.host, w.pid, w.state, `${w.last_seen_s} s ago`, w.leased, w.done, w.failed, w.lost]);
  const idle = s.queues.filter((q) => q.waiting > 0 && !s.workers.some((w) => w.state === "live" && w.code === q.code));
  const warn = idle.map((q) => `no live worker runs code ${q.code}: the ${q.waiting} waiting item(s) of ${q.queue} wait for a worker of that revision\n`).join("");
  return `database ${s.database}\n${s.queues.length ? queues.toString() : "no queue yet"}\n${s.workers.length ? workers.toString() : "no worker yet"}\n${warn}`;
}

/** `synth queue status` and `synth queue retry-failed`. */
export function registerQueue(program: Command): void {
  const queue = program.command("queue").description("Inspect and operate the postgres backend's job queue.");
  withBackendOptions(queue.command("status"), false)
    .description("Items waiting, leased, done and failed per queue, and per worker (live, stopped or gone, with the items it holds, finished, failed and lost to an expired lease).")
    .option("--json", "print the status as JSON")
    .addHelpText("after", "\nQueues are named after the code fingerprint of the synth that enqueued them; a worker serves only its own.\nExit codes: 0 shown, 1 the database cannot be read or holds no foundry schema, 2 usage.")
    .action(async (o: BackendFlags & { json?: boolean }) => {
      const { queueStatus } = await import("../../backend/postgres/queue-status.js");
      const s = await queueStatus(resolveConfig({ flags: backendFlags(o) }).database_url);
      process.stdout.write(o.json ? `${JSON.stringify(s, null, 2)}\n` : renderQueueStatus(s));
    });
  withBackendOptions(queue.command("retry-failed"), false)
    .description("Put every failed item (retries spent) back in its queue for one more attempt; rerun the evaluation or `synth resume` the build to wait for them.")
    .option("--json", "print the counts as JSON")
    .action(async (o: BackendFlags & { json?: boolean }) => {
      const { retryFailed } = await import("../../backend/postgres/queue-status.js");
      const r = await retryFailed(resolveConfig({ flags: backendFlags(o) }).database_url);
      const total = Object.values(r).reduce((a, b) => a + b, 0);
      process.stdout.write(o.json ? `${JSON.stringify({ retried: r, total })}\n` : `${total} failed item(s) back in the queue${total ? `: ${Object.entries(r).map(([q, n]) => `${q} ${n}`).join(", ")}` : ""}\n`);
    });
}
