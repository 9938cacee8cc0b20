import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { PG_BIN, pgTest, startPostgres, type PgCluster } from "../helpers/postgres.js";
import { folderBytes, ROOT, startSynth } from "./synth-process.js";

// One sample domain (ed-triage, its card cut to 4 task slots to keep the test short) built embedded
// and on two workers against a throwaway PostgreSQL; the postgres coordinator is SIGKILLed once
// (after every slot is done, when calibrate starts) and resumed from its Postgres checkpoint.
const DOMAIN = "ed-triage";

function workingCopy(dir: string): { sources: string; sop: string; generated: string } {
  const sources = join(dir, "sources");
  mkdirSync(sources, { recursive: true });
  cpSync(join(ROOT, "sources", DOMAIN), join(sources, DOMAIN), { recursive: true });
  const card = join(sources, DOMAIN, "domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, "task_count: 4"));
  return { sources, sop: join(dir, "sop"), generated: join(dir, "generated") };
}

const pathArgs = (p: ReturnType<typeof workingCopy>) => ["--domains", DOMAIN, "--sources", p.sources, "--sop", p.sop, "--generated", p.generated];

describe("synth build --backend postgres", () => {
  let cluster: PgCluster;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "foundry-pg-build-"));
    if (PG_BIN || process.env.CI === "true") cluster = await startPostgres();
  }, 60_000);
  afterAll(() => {
    cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  pgTest(
    "two workers build generated/<domain>/ and sop/<domain>/ byte-identical to the embedded build, also across a coordinator killed and resumed",
    async () => {
      const env = { FOUNDRY_MODEL: "", FOUNDRY_SEED: "", FOUNDRY_CONFIG: "" };
      const emb = workingCopy(join(dir, "embedded"));
      const e = startSynth(["build", ...pathArgs(emb)], { env });
      expect(await e.exited, e.output()).toBe(0);

      const pgc = workingCopy(join(dir, "postgres"));
      const workers = [0, 1].map((i) => startSynth(["worker", "--follow", "--database-url", cluster.url], { env: { ...env, FOUNDRY_CACHE_DIR: join(dir, `worker-cache-${i}`) } }));
      try {
        const marker = join(dir, "killed-at-calibrate");
        const first = startSynth(["build", ...pathArgs(pgc), "--backend", "postgres", "--database-url", cluster.url], { env: { ...env, FOUNDRY_TEST_KILL_AT: "calibrate", FOUNDRY_TEST_KILL_MARKER: marker } });
        expect(await first.exited, first.output()).toBe(-1);
        expect(first.output()).toMatch(/ed-triage slots: 4\/4 done/);
        const run = /run (run-[0-9a-f]{8})/.exec(first.output())?.[1] as string;
        const resumed = startSynth(["resume", run, "--generated", pgc.generated, "--backend", "postgres", "--database-url", cluster.url], { env });
        expect(await resumed.exited, resumed.output()).toBe(0);
        // The slots were not worked again: each has one attempt, by one of the two workers.
        const db = new pg.Client({ connectionString: cluster.url });
        await db.connect();
        const attempts = await db.query("SELECT outcome, count(*)::int AS n FROM foundry.attempts WHERE queue LIKE 'foundry_slot_%' GROUP BY 1");
        await db.end();
        expect(attempts.rows).toEqual([{ outcome: "done", n: 4 }]);
      } finally {
        for (const w of workers) w.child.kill("SIGTERM");
        await Promise.all(workers.map((w) => w.exited));
      }
      const skip = (rel: string) => rel.startsWith(".verify");
      const want = folderBytes(join(emb.generated, DOMAIN), skip);
      expect(Object.keys(want)).toContain("build-record.json");
      expect(Object.keys(want).filter((f) => f.startsWith("tasks/")).length).toBeGreaterThan(0);
      expect(folderBytes(join(pgc.generated, DOMAIN), skip)).toEqual(want);
      expect(folderBytes(join(pgc.sop, DOMAIN))).toEqual(folderBytes(join(emb.sop, DOMAIN)));
    },
    600_000,
  );
});
