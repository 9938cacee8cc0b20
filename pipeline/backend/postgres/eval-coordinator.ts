import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FoundryError } from "../../core/errors.js";
import { sha256 } from "../../core/canonical-json.js";
import { EpisodeResult } from "../../schemas/evaluation-result.js";
import type { EpisodeRunner } from "../../evaluate/episode-batch.js";
import { keyOf } from "../../evaluate/episode-runner.js";
import { episodeId, writeDurably } from "../../evaluate/results-log.js";
import { agentKind } from "../../evaluate/agents/registry.js";
import { putFiles, readFolder } from "./blob-store.js";
import { itemKey, putWork, sharedConfig, workKey } from "./work-spec.js";
import { EvaluationSpec } from "./episode-item.js";
import { queueName, jobId } from "./queue.js";
import { claimOutput } from "./output-claim.js";
import { waitForItems } from "./wait-items.js";
import { failedJobs } from "./item-states.js";
import type { PostgresBackend } from "./postgres-backend.js";

/**
 * The postgres backend's episode runner: store the release (and a replayed trace) in the database,
 * record the evaluation, enqueue one item per episode not yet finished (idempotency key: the
 * evaluation's key and the episode), then wait for `synth worker` processes to work them, writing
 * each trace and results.jsonl line as its result appears. Items failed before are retried by a rerun.
 */
export function postgresEpisodes(backend: PostgresBackend): EpisodeRunner {
  return {
    kind: "postgres",
    async runAll(batch) {
      const { db, queue, code } = backend;
      if (backend.bounds.leaseSeconds * 1000 <= batch.settings.wall_time_ms) {
        backend.log(`warning: lease_seconds (${backend.bounds.leaseSeconds} s) is not above --wall-time-ms (${batch.settings.wall_time_ms} ms): an episode still running when its lease expires is run again elsewhere (its result is still written once)`);
      }
      const claim = await claimOutput(db, batch.out, `synth evaluate --agent ${batch.settings.agent}`);
      try {
        const release = await putFiles(db, readFolder(batch.release.dir));
        let replay: EvaluationSpec["replay"] = null;
        if (agentKind(batch.settings.agent) === "replay") {
          const file = batch.settings.agent.slice("replay:".length);
          const bytes = readFileSync(file);
          replay = { sha256: (await putFiles(db, new Map([["replay.json", bytes]])))["replay.json"] as string, file };
        }
        const spec = EvaluationSpec.parse({ settings: batch.settings, release, config: sharedConfig(batch.config), replay });
        // The release's root hash is in the settings; its files are addressed by content.
        const parent = workKey("evaluation", { settings: spec.settings, config: spec.config, replay: replay?.sha256 ?? null }, code);
        await putWork(db, parent, "evaluation", spec);
        const name = queueName("episode", code);
        const items = batch.todo.map((p) => {
          const item = episodeId(keyOf(p));
          return { key: itemKey(parent, item), parent, item };
        });
        await queue.enqueue(name, items, backend.bounds);
        await queue.retry(name, await failedJobs(db, name, items.map((i) => jobId(i.key))));
        backend.log(`evaluation ${parent.slice(0, 12)}: ${items.length} episode(s) in queue ${name} at ${db.shown}; run \`synth worker --database-url …\` on any machine to work them`);
        await waitForItems({
          db,
          queue: name,
          keys: items.map((i) => i.key),
          rerun: "rerun this evaluation (finished episodes are kept)",
          onProgress: (line) => backend.log(`episodes: ${line}`),
          onResult: (r) => {
            const result = EpisodeResult.parse(JSON.parse(r.value));
            if (r.attachment === null || sha256(r.attachment) !== result.trace_sha256) throw new FoundryError("RESULT_TRACE_MISMATCH", `the stored trace of episode ${r.item} does not have the sha256 its result records`, {}, r.item);
            writeDurably(join(batch.out, result.trace_file), r.attachment);
            batch.finished(result);
          },
        });
      } finally {
        await claim.release();
      }
    },
  };
}
