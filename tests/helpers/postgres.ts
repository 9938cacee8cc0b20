import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { it } from "vitest";

/** Debian's PostgreSQL server binaries (`.ci/run` installs `postgresql` when missing): the newest version present. */
function findBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

export const PG_BIN = findBinDir();

/**
 * `it` for a test that needs PostgreSQL. Under CI a missing server is a failure, never a skip (a
 * skipped database test would pass CI green); elsewhere the test is skipped without one.
 */
export const pgTest = PG_BIN || process.env.CI === "true" ? it : it.skip;

/** The password of the throwaway cluster's user (scram-sha-256, so a wrong one is refused). */
export const PG_PASSWORD = "foundry-test-secret";

/** A throwaway cluster listening only on a Unix socket in its own temporary folder. */
export interface PgCluster {
  /** `postgresql://foundry:PASSWORD@/foundry?host=SOCKET_DIR` */
  url: string;
  /** The same database with another password. */
  wrongPasswordUrl: string;
  socketDir: string;
  /** Stop the server and keep the data (restart() brings it back). */
  stop(): void;
  /** Start it again after stop(). */
  start(): void;
  /** Stop the server and remove the folder. */
  destroy(): void;
}

const asRoot = process.getuid?.() === 0;

/** Run a server binary; as root it runs as the `postgres` user (the server refuses root). */
function run(bin: string, args: string[]): string {
  const file = join(PG_BIN as string, bin);
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
  return execFileSync(cmd, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Create a cluster with `initdb` in a temporary folder (user `foundry`, password auth on the socket),
 * start it with `listen_addresses=''` (no TCP at all) and create the database `foundry`.
 */
export async function startPostgres(): Promise<PgCluster> {
  if (!PG_BIN) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: install Debian's postgresql (.ci/run does: apt-get install -y --no-install-recommends postgresql)");
  const dir = mkdtempSync(join(tmpdir(), "foundry-pg-"));
  chmodSync(dir, 0o777);
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = join(dir, "data");
  const pwfile = join(dir, "pw");
  writeFileSync(pwfile, `${PG_PASSWORD}\n`);
  chmodSync(pwfile, 0o644);
  run("initdb", ["-D", data, "-U", "foundry", `--pwfile=${pwfile}`, "--auth-local=scram-sha-256", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-sync"]);
  const start = () => {
    run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-t", "30", "-o", `-c listen_addresses='' -k ${dir} -c fsync=off -c max_connections=100`, "start"]);
  };
  const stop = () => {
    try {
      run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    } catch {
      // Already stopped.
    }
  };
  start();
  const base = `postgresql://foundry:${encodeURIComponent(PG_PASSWORD)}@/`;
  const admin = new pg.Client({ connectionString: `${base}postgres?host=${encodeURIComponent(dir)}` });
  await admin.connect();
  await admin.query("CREATE DATABASE foundry");
  await admin.end();
  return {
    url: `${base}foundry?host=${encodeURIComponent(dir)}`,
    wrongPasswordUrl: `postgresql://foundry:not-the-password@/foundry?host=${encodeURIComponent(dir)}`,
    socketDir: dir,
    stop,
    start,
    destroy: () => {
      stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
