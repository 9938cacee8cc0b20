// The postgres backend's throughput and overhead, on a throwaway PostgreSQL (Debian's server
// binaries, Unix socket only). (1) Evaluation throughput of `synth evaluate --backend postgres`
// with a simulated-latency model (the golden-trace model over HTTP, 100 ms per call) worked by 1, 2
// and 4 `synth worker` processes (one item at a time each), against the ideal (workers × one
// episode per its model time). (2) The queue's overhead per item: what a worker does around an
// item (take it, record the attempt, look for an earlier result, write the result once, complete
// it), timed on no-op items. Run: `node --import tsx bench/queue-throughput.ts` (`--write` updates
// the section of BENCHMARKS.md; `--smoke`: one worker, one customs-clearance task at E0, a 5 ms
// model, 5 no-op items; no target is judged).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawn } from "node:child_process";
import os from "node:os";
import pg from "pg";
import Table from "cli-table3";
import { startPostgres } from "../tests/helpers/postgres.js";
import { GoldenModelServer } from "./golden-model-server.js";
import { loadEvalRelease } from "../pipeline/evaluate/load-release.js";
import { latestVersion } from "../pipeline/build/sample-release.js";
import { Database } from "../pipeline/backend/postgres/database.js";
import { ensureSchema, SCHEMA } from "../pipeline/backend/postgres/schema.js";
import { JobQueue } from "../pipeline/backend/postgres/queue.js";
import { hasResult, writeResult } from "../pipeline/backend/postgres/results-store.js";
import { itemKey } from "../pipeline/backend/postgres/work-spec.js";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, size } from "./lib/smoke.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RELEASES = join(ROOT, "generated", "releases");
const VERSION = latestVersion(RELEASES, "sample") as string;
const LATENCY_MS = size(100, 5);
const WORKERS = size([1, 2, 4], [1]);
const NOOP_ITEMS = size(200, 5);
const release = loadEvalRelease(join(RELEASES, "sample", VERSION));
const SMOKE_TASKS = release.tasks.filter((t) => t.domain.id === "customs-clearance").slice(0, 1).map((t) => t.task.id);
const ARGS = ["evaluate", `sample@${VERSION}`, "--agent", "openai:golden", "--domains", "customs-clearance", "--conditions", SMOKE ? "E0" : "E0,E1,E2,E3", ...(SMOKE ? ["--tasks", SMOKE_TASKS.join(",")] : []), "--releases", RELEASES];

/** Every file of a folder with its bytes, as one string (for comparing outputs). */
function folderBytes(d: string): string {
  const walk = (x: string): string[] => readdirSync(x).sort().flatMap((n) => (statSync(join(x, n)).isDirectory() ? walk(join(x, n)) : [`${join(x, n).slice(d.length)}\0${readFileSync(join(x, n)).toString("base64")}`]));
  return walk(d).join("\n");
}

function synth(args: string[], env: NodeJS.ProcessEnv): { exited: Promise<number>; kill(): void } {
  const child = spawn(process.execPath, [join(ROOT, "bin", "synth.js"), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  return { exited: new Promise((r) => child.on("exit", (c) => r(c ?? -1))), kill: () => child.kill("SIGTERM") };
}

const dir = mkdtempSync(join(tmpdir(), "foundry-bench-queue-"));
const cluster = await startPostgres();
const server = await GoldenModelServer.start(release.tasks.map((t) => ({ opening: t.task.scenario.opening_request, golden: t.golden })), LATENCY_MS);
const rows: Array<{ workers: number; episodes: number; calls: number; seconds: number; perS: number; warmPerS: number; ideal: number }> = [];
try {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  for (const n of WORKERS) {
    // A fresh database per run: nothing cached, nothing finished before.
    await admin.query(`CREATE DATABASE bench_${n}`);
    const url = cluster.url.replace("/foundry?", `/bench_${n}?`);
    const env = { FOUNDRY_BASE_URL: server.baseUrl, FOUNDRY_CACHE_DIR: join(dir, `cache-${n}`), FOUNDRY_CONFIG: "", FOUNDRY_MODEL: "" };
    const workers = Array.from({ length: n }, () => synth(["worker", "--follow", "--database-url", url], env));
    const callsBefore = server.calls;
    const code = await synth([...ARGS, "--out", join(dir, `out-${n}`), "--backend", "postgres", "--database-url", url], env).exited;
    for (const w of workers) w.kill();
    await Promise.all(workers.map((w) => w.exited));
    if (code !== 0) throw new Error(`evaluate with ${n} worker(s) exited ${code}`);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    // From the first item taken to the last result written: the queue's working time, without start-up and export.
    const t = (await c.query(`SELECT extract(epoch FROM max(r.created_at) - min(a.started_at))::float AS s, count(DISTINCT r.key)::int AS n FROM ${SCHEMA}.results r, ${SCHEMA}.attempts a`)).rows[0] as { s: number; n: number };
    // Once every worker has finished its first item (the release loaded and verified in each), to the last result.
    const warm = (await c.query(
      `WITH w AS (SELECT max(first) AS t0 FROM (SELECT min(ended_at) AS first FROM ${SCHEMA}.attempts GROUP BY worker) f)
       SELECT extract(epoch FROM max(r.created_at) - (SELECT t0 FROM w))::float AS s, count(*) FILTER (WHERE r.created_at > (SELECT t0 FROM w))::int AS n FROM ${SCHEMA}.results r`,
    )).rows[0] as { s: number; n: number };
    await c.end();
    const calls = server.calls - callsBefore;
    const episodeModelS = (calls / t.n) * (LATENCY_MS / 1000);
    rows.push({ workers: n, episodes: t.n, calls, seconds: t.s, perS: t.n / t.s, warmPerS: warm.n / warm.s, ideal: n / episodeModelS });
  }
  await admin.end();
  // One worker or many: the same bytes.
  const same = WORKERS.every((n) => folderBytes(join(dir, `out-${n}`)) === folderBytes(join(dir, `out-${WORKERS[0]}`)));
  if (!same) throw new Error("the outputs of 1, 2 and 4 workers differ");

  // The queue's overhead per item, on no-op items.
  const db = await Database.open(cluster.url, "bench");
  await ensureSchema(db);
  const queue = await JobQueue.open(db, { install: true, supervise: false });
  const name = "foundry_episode_0000000000000000";
  const items = Array.from({ length: NOOP_ITEMS }, (_, i) => ({ key: itemKey("bench", `noop-${i}`), parent: "bench", item: `noop-${i}` }));
  const t0 = performance.now();
  await queue.enqueue(name, items, { leaseSeconds: 60, retries: 2 });
  const t1 = performance.now();
  for (;;) {
    const item = await queue.take(name);
    if (!item) break;
    const [a] = await db.query<{ id: string }>(`INSERT INTO ${SCHEMA}.attempts (job_id, queue, item_key, worker) VALUES ($1, $2, $3, 'bench') RETURNING id`, [item.id, item.queue, item.data.key]);
    if (!(await hasResult(db, item.data.key))) await writeResult(db, { key: item.data.key, parent: "bench", item: item.data.item, value: "{}", attachment: null, worker: "bench" });
    await queue.complete(item);
    await db.query(`UPDATE ${SCHEMA}.attempts SET ended_at = now(), outcome = 'done' WHERE id = $1`, [a?.id]);
  }
  const t2 = performance.now();
  await queue.close();
  await db.close();
  const enqueueMs = (t1 - t0) / NOOP_ITEMS;
  const workMs = (t2 - t1) / NOOP_ITEMS;

  const table = new Table({ head: ["workers", "episodes", "model calls", "seconds", "episodes/s", "warm episodes/s", "ideal/s", "of ideal (warm)"] });
  for (const r of rows) table.push([r.workers, r.episodes, r.calls, r.seconds.toFixed(1), r.perS.toFixed(2), r.warmPerS.toFixed(2), r.ideal.toFixed(2), `${((100 * r.perS) / r.ideal).toFixed(0)}% (${((100 * r.warmPerS) / r.ideal).toFixed(0)}%)`]);
  console.log(table.toString());
  console.log(`queue overhead per item: enqueue ${enqueueMs.toFixed(2)} ms, take + attempt + result + complete ${workMs.toFixed(2)} ms (${NOOP_ITEMS} no-op items, one process)`);
  if (process.argv.includes("--write")) {
    const md = [
      "<!-- queue:start -->",
      "## Postgres backend: evaluation throughput and queue overhead (`bench/queue-throughput.ts`)",
      "",
      `\`synth evaluate sample@${VERSION} --agent openai:golden --domains customs-clearance --conditions E0,E1,E2,E3 --backend postgres\`: a model agent over real HTTP (the golden-trace model, ${LATENCY_MS} ms per call), worked by N \`synth worker\` processes (one item at a time each) on a throwaway PostgreSQL 15 (Unix socket, fsync off). Seconds: first item taken to last result written. Ideal: N × one episode per (model calls per episode × ${LATENCY_MS} ms). Each worker loads and verifies the release on its first item, inside the window. ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "unknown CPU"}, shared with other work while measured (load average ${os.loadavg()[0]?.toFixed(1)} at the end).`,
      "",
      "| workers | episodes | model calls | seconds | episodes/s | warm episodes/s | ideal/s | of ideal (warm) |",
      "|---|---|---|---|---|---|---|---|",
      ...rows.map((r) => `| ${r.workers} | ${r.episodes} | ${r.calls} | ${r.seconds.toFixed(1)} | ${r.perS.toFixed(2)} | ${r.warmPerS.toFixed(2)} | ${r.ideal.toFixed(2)} | ${((100 * r.perS) / r.ideal).toFixed(0)}% (${((100 * r.warmPerS) / r.ideal).toFixed(0)}%) |`),
      "",
      "Warm: from the moment every worker has finished its first item to the last result. What separates one worker from its ideal is the CPU each episode costs besides its model calls (agent loop, LLM runtime, session and fault layer, judging, the result written to Postgres), here on two cores shared by every worker, the coordinator, the model server and the database; workers on their own machines do not share them. The outputs (results.jsonl, summary.json, report.html, traces) of 1, 2 and 4 workers are byte-identical (the script fails otherwise).",
      "",
      `Queue overhead per item (${NOOP_ITEMS} no-op items, one process): enqueue ${enqueueMs.toFixed(2)} ms; take, record the attempt, look for an earlier result, write the result once and complete ${workMs.toFixed(2)} ms.`,
      "<!-- queue:end -->",
    ].join("\n");
    writeBenchmarksSection("<!-- queue:start -->", "<!-- queue:end -->", md);
  }
} finally {
  await server.close();
  cluster.destroy();
  rmSync(dir, { recursive: true, force: true });
}
