import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { PG_BIN, pgTest, startPostgres, type PgCluster } from "../helpers/postgres.js";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { latestVersion } from "../../pipeline/build/sample-release.js";
import { GoldenModelServer } from "../../bench/golden-model-server.js";
import { folderBytes, ROOT, startSynth, until } from "./synth-process.js";

// An evaluation of the sample release (ed-triage, E0 and E1) by a model agent over real HTTP
// (a golden-trace model with latency, so episodes take time), run embedded and then by three
// workers on a throwaway PostgreSQL, one of them SIGKILLed while it holds an item.
const RELEASES = join(ROOT, "generated", "releases");
const VERSION = latestVersion(RELEASES, "sample") as string;
const ARGS = ["evaluate", `sample@${VERSION}`, "--agent", "openai:golden", "--domains", "ed-triage", "--conditions", "E0,E1", "--releases", RELEASES];

describe("synth evaluate --backend postgres", () => {
  let cluster: PgCluster;
  let server: GoldenModelServer;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  /** ed-triage's tasks in the sample release × the two conditions. */
  let episodes = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "foundry-pg-eval-"));
    const release = loadEvalRelease(join(RELEASES, "sample", VERSION));
    episodes = 2 * release.tasks.filter((t) => t.task.domain === "ed-triage").length;
    server = await GoldenModelServer.start(release.tasks.map((t) => ({ opening: t.task.scenario.opening_request, golden: t.golden })), 60);
    // Short leases so the killed worker's item comes back quickly; two retries.
    writeFileSync(join(dir, "foundry.config.yaml"), "lease_seconds: 4\nitem_retries: 2\n");
    env = { FOUNDRY_CONFIG: join(dir, "foundry.config.yaml"), FOUNDRY_BASE_URL: server.baseUrl, OPENAI_API_KEY: "", FOUNDRY_MODEL: "", CI: process.env.CI ?? "" };
    if (PG_BIN || process.env.CI === "true") cluster = await startPostgres();
  }, 120_000);

  afterAll(async () => {
    cluster?.destroy();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  pgTest(
    "three workers, one SIGKILLed mid-item: results.jsonl, summary.json, report.html and every trace are byte-identical to the embedded run",
    async () => {
      const emb = startSynth([...ARGS, "--out", join(dir, "embedded"), "--concurrency", "3"], { env: { ...env, FOUNDRY_CACHE_DIR: join(dir, "cache-embedded") } });
      expect(await emb.exited, emb.output()).toBe(0);

      const workers = [0, 1, 2].map((i) => startSynth(["worker", "--follow", "--database-url", cluster.url], { env: { ...env, FOUNDRY_CACHE_DIR: join(dir, `cache-worker-${i}`) } }));
      const coordinator = startSynth([...ARGS, "--out", join(dir, "postgres"), "--backend", "postgres", "--database-url", cluster.url], { env: { ...env, FOUNDRY_CACHE_DIR: join(dir, "cache-coordinator") } });
      const db = new pg.Client({ connectionString: cluster.url });
      await db.connect();
      try {
        // Kill worker 1 while it holds an item (an attempt of it is open), not between items.
        const victim = workers[1]?.child.pid as number;
        let held = "";
        await until(`worker 1 to hold an item; coordinator so far:\n${coordinator.output()}`, async () => {
          const r = await db.query("SELECT a.item_key FROM foundry.attempts a JOIN foundry.workers w ON w.id = a.worker WHERE w.pid = $1 AND a.ended_at IS NULL", [victim]).catch(() => ({ rows: [] }));
          held = (r.rows[0] as { item_key?: string } | undefined)?.item_key ?? "";
          return held !== "";
        }, 300_000);
        workers[1]?.child.kill("SIGKILL");
        expect(await coordinator.exited, coordinator.output()).toBe(0);
        // As many as the release has ed-triage task files, twice (E0 and E1).
        expect(episodes).toBeGreaterThan(0);
        expect(episodes).toBe(2 * readdirSync(join(RELEASES, "sample", VERSION, "domains", "ed-triage", "tasks")).filter((f) => f.endsWith(".json")).length);
        expect(coordinator.output()).toContain(`${episodes}/${episodes} done`);

        // The killed worker's item was taken again after its lease expired and written once, by another worker.
        const attempts = await db.query("SELECT w.pid, a.outcome FROM foundry.attempts a JOIN foundry.workers w ON w.id = a.worker WHERE a.item_key = $1 ORDER BY a.id", [held]);
        expect(attempts.rows.map((r) => [r.pid === victim, r.outcome])).toEqual([[true, "lease_expired"], [false, "done"]]);
        const results = await db.query("SELECT count(*)::int AS n, count(DISTINCT key)::int AS k FROM foundry.results");
        expect(results.rows[0]).toEqual({ n: episodes, k: episodes });
        const written = await db.query("SELECT w.pid FROM foundry.results r JOIN foundry.workers w ON w.id = r.worker WHERE r.key = $1", [held]);
        expect(written.rows[0]?.pid).not.toBe(victim);
        // The model's answers are cached in the database, shared by the workers, not in a file of each.
        const cached = await db.query("SELECT count(*)::int AS n, count(DISTINCT model)::int AS models FROM foundry.responses");
        expect(cached.rows[0]?.n).toBeGreaterThan(episodes);
        expect(cached.rows[0]?.models).toBe(1);
        for (const i of [0, 1, 2]) expect(existsSync(join(dir, `cache-worker-${i}`, "llm-cache.sqlite"))).toBe(false);
      } finally {
        await db.end();
        for (const w of workers) w.child.kill("SIGTERM");
        await Promise.all(workers.map((w) => w.exited));
      }
      expect(folderBytes(join(dir, "postgres"))).toEqual(folderBytes(join(dir, "embedded")));

      // The status shows the queue drained and the killed worker's lost lease.
      const status = startSynth(["queue", "status", "--json", "--database-url", cluster.url], { env });
      expect(await status.exited).toBe(0);
      const s = JSON.parse(status.output()) as { queues: Array<{ kind: string; waiting: number; leased: number; done: number; failed: number; this_code: boolean }>; workers: Array<{ pid: number; lost: number; state: string }> };
      expect(s.queues.filter((q) => q.kind === "episode").map(({ waiting, leased, done, failed, this_code }) => ({ waiting, leased, done, failed, this_code }))).toEqual([{ waiting: 0, leased: 0, done: episodes, failed: 0, this_code: true }]);
      expect(s.workers.find((w) => w.pid === workers[1]?.child.pid)?.lost).toBe(1);
      expect(s.workers.filter((w) => w.pid !== workers[1]?.child.pid).map((w) => w.state), workers.map((w, i) => `worker ${i}:\n${w.output()}`).join("\n")).toEqual(["stopped", "stopped"]);
    },
    600_000,
  );
});
