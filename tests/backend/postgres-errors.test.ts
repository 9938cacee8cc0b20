import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_BIN, pgTest, startPostgres, type PgCluster } from "../helpers/postgres.js";
import { runCli } from "../cli/run-cli.js";
import { redactUrl } from "../../pipeline/backend/postgres/database-url.js";

const SECRET = "s3cret-pw";

describe("database URLs are never printed with their password", () => {
  it("redactUrl hides user:password@ and password= and keeps the rest", () => {
    expect(redactUrl(`postgres://foundry:${SECRET}@db.internal:5433/foundry`)).toBe("postgres://foundry:***@db.internal:5433/foundry");
    expect(redactUrl(`postgresql://foundry:${SECRET}@/foundry?host=%2Ftmp%2Fsock`)).toBe("postgresql://foundry:***@/foundry?host=%2Ftmp%2Fsock");
    expect(redactUrl(`postgres://db/foundry?user=u&password=${SECRET}&sslmode=require`)).toBe("postgres://db/foundry?user=u&password=***&sslmode=require");
    expect(redactUrl("postgres://db.internal/foundry")).toBe("postgres://db.internal/foundry");
    expect(redactUrl(`foundry:${SECRET}`)).toBe("(not a URL)");
  });
});

describe("bad database settings are reported before any work", () => {
  let dir: string;
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "foundry-pg-errors-"));
    if (PG_BIN || process.env.CI === "true") cluster = await startPostgres();
  }, 60_000);
  afterAll(() => {
    cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("an unreachable database: exit 1, DATABASE_UNREACHABLE with the URL without its password, no output written", () => {
    const url = `postgresql://foundry:${SECRET}@/foundry?host=${encodeURIComponent(join(dir, "no-server"))}`;
    const out = join(dir, "eval-out");
    const r = runCli(["evaluate", "sample", "--agent", "oracle", "--backend", "postgres", "--database-url", url, "--out", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`[DATABASE_UNREACHABLE] connecting to the postgres backend: cannot reach the database at postgresql://foundry:***@/foundry?host=${encodeURIComponent(join(dir, "no-server"))}`);
    expect(r.stderr + r.stdout).not.toContain(SECRET);
    expect(existsSync(out)).toBe(false);
    const tcp = runCli(["worker", "--database-url", `postgres://foundry:${SECRET}@127.0.0.1:1/foundry`]);
    expect(tcp.code).toBe(1);
    expect(tcp.stderr).toContain("[DATABASE_UNREACHABLE] starting the worker: cannot reach the database at postgres://foundry:***@127.0.0.1:1/foundry (ECONNREFUSED");
    expect(tcp.stderr).not.toContain(SECRET);
  }, 240_000);

  it("the postgres backend without a URL, or an unknown backend, is a usage error (exit 2)", () => {
    const none = runCli(["build", "--backend", "postgres", "--domains", "fx-treasury", "--generated", join(dir, "gen")], { env: { FOUNDRY_DATABASE_URL: "" } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--database-url: [USAGE] the postgres backend needs a database: give --database-url, set FOUNDRY_DATABASE_URL, or database_url in foundry.config.yaml");
    const bogus = runCli(["evaluate", "sample", "--agent", "oracle", "--backend", "sqlite"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('--backend: [USAGE] --backend expects embedded or postgres, got "sqlite"');
    const notUrl = runCli(["queue", "status", "--database-url", `mysql://root:${SECRET}@h/db`]);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain("--database-url must be a postgres:// or postgresql:// URL (postgres://user:password@host:port/database), got mysql://root:***@h/db");
  }, 240_000);

  pgTest("a wrong password, a missing database and a missing schema are named, without the password", () => {
    const c = cluster as PgCluster;
    const wrong = runCli(["worker", "--database-url", c.wrongPasswordUrl]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("[DATABASE_AUTH] starting the worker: the database at postgresql://foundry:***@/foundry?host=");
    expect(wrong.stderr).toContain('password authentication failed for user "foundry"');
    expect(wrong.stderr).not.toContain("not-the-password");
    const missing = runCli(["evaluate", "sample", "--agent", "oracle", "--backend", "postgres", "--database-url", c.url.replace("/foundry?", "/nosuchdb?")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('[DATABASE_MISSING] connecting to the postgres backend: database "nosuchdb" does not exist at postgresql://foundry:***@/nosuchdb?host=');
    const schema = runCli(["queue", "status", "--database-url", c.url]);
    expect(schema.code).toBe(1);
    expect(schema.stderr).toContain("[DATABASE_SCHEMA_MISSING] the database at postgresql://foundry:***@/foundry?host=");
    expect(schema.stderr).toContain("has no foundry schema (foundry.*, pgboss.*): nothing was ever enqueued there");
    expect(schema.stderr + wrong.stderr + missing.stderr).not.toContain("foundry-test-secret");
  }, 240_000);
});
