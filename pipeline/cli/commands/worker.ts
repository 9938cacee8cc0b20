import type { Command } from "commander";
import { resolveConfig } from "../../core/config.js";
import { FoundryError, quote } from "../../core/errors.js";
import { wholeOption } from "../../evaluate/settings.js";
import { backendFlags, withBackendOptions, type BackendFlags } from "../backend-options.js";

/** `synth worker`: work the postgres backend's queue from this machine. */
export function registerWorker(program: Command): void {
  const cmd = program.command("worker");
  withBackendOptions(cmd, false)
    .description("Work items of the postgres backend's job queue (evaluation episodes, build task slots) until the queue is empty, or until stopped with --follow.")
    .option("--follow", "keep waiting for new items when the queue is empty; stop with Ctrl-C or SIGTERM (items in hand are finished first)")
    .option("--concurrency <n>", "items worked at once in this process (default 1)")
    .option("--json", "print the outcome as JSON")
    .addHelpText(
      "after",
      `
Start any number of workers, on any machines that reach the database and hold the same revision of
this code (a worker takes only the items of queues named after its own code fingerprint, so every
result is the bytes the coordinator's code would produce). Each item is leased for lease_seconds
(default 900): a killed worker's items go back to the queue when the lease expires and another
worker takes them; an item that fails is retried item_retries times (default 2) with backoff, then
marked failed (\`synth queue retry-failed\`). A result is written once, under the item's idempotency
key. Model API keys come from each worker's own environment; models, base URL and temperature come
with the work. Without --follow the worker exits when nothing is waiting or leased anywhere.

Exit codes: 0 the queue is empty (or stopped), 1 the database cannot be used, 2 usage.

Examples:
  synth worker --database-url postgres://foundry:secret@db.internal/foundry
  FOUNDRY_DATABASE_URL=postgres://… synth worker --follow --concurrency 4`,
    )
    .action(async (o: BackendFlags & { follow?: boolean; concurrency?: string; json?: boolean }) => {
      const config = resolveConfig({ flags: backendFlags(o) });
      const concurrency = wholeOption("--concurrency", o.concurrency, 1, 1);
      if (concurrency > 64) throw new FoundryError("USAGE", `--concurrency expects a whole number from 1 to 64, got ${quote(o.concurrency)}`, { path: "--concurrency" }, o.concurrency);
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        const { runWorker } = await import("../../backend/postgres/worker.js");
        const r = await runWorker({ config: { ...config, backend: "postgres" }, follow: Boolean(o.follow), concurrency, signal: stop.signal, log: (l) => process.stderr.write(`${l}\n`) });
        if (o.json) process.stdout.write(`${JSON.stringify(r)}\n`);
        else process.stdout.write(`worker ${r.worker}: ${r.done} item(s) done, ${r.failed} failed${r.duplicates ? `, ${r.duplicates} duplicate(s) dropped` : ""}\n`);
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
