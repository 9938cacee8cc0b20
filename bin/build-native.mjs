#!/usr/bin/env node
// Builds the SQLite loadable extension native/sql-guard.c into build/native/sql-guard.so (run by
// `npm ci` through the `prepare` script; rerun it by hand with `node bin/build-native.mjs`). It
// compiles against the SQLite headers better-sqlite3 ships, so the extension matches the SQLite
// the connections run. Skips the compile when the library is newer than its source.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "native", "sql-guard.c");
const outDir = join(root, "build", "native");
const out = join(outDir, "sql-guard.so");
const require = createRequire(join(root, "package.json"));

function fail(message) {
  process.stderr.write(`build-native: ${message}\n`);
  process.exit(1);
}

let headers;
try {
  headers = join(dirname(require.resolve("better-sqlite3/package.json")), "deps", "sqlite3");
} catch {
  fail("better-sqlite3 is not installed; run `npm ci` first");
}
if (!existsSync(join(headers, "sqlite3ext.h"))) fail(`no sqlite3ext.h in ${headers}`);

const force = process.argv.includes("--force");
if (!force && existsSync(out) && statSync(out).mtimeMs >= statSync(source).mtimeMs) {
  process.stdout.write(`build-native: ${out} is up to date\n`);
  process.exit(0);
}

const cc = process.env.CC || "cc";
const probe = spawnSync(cc, ["--version"], { encoding: "utf8" });
if (probe.error || probe.status !== 0) {
  fail(`no C compiler: \`${cc}\` was not found or does not run (${probe.error?.message ?? `exit ${probe.status}`}). Install one (Debian: apt-get install gcc; macOS: xcode-select --install) or set CC, then run \`node bin/build-native.mjs\`.`);
}

mkdirSync(outDir, { recursive: true });
const tmp = `${out}.${process.pid}.tmp`;
// -z nodelete: the watchdog thread runs this library's code, so it must stay loaded after the last connection closes.
const args = ["-O2", "-shared", "-fPIC", "-pthread", "-Wall", "-Wextra", "-Wno-unused-parameter", `-I${headers}`, "-Wl,-z,nodelete", "-o", tmp, source];
const r = spawnSync(cc, args, { stdio: "inherit" });
if (r.status !== 0) fail(`\`${cc} ${args.join(" ")}\` failed (exit ${r.status})`);
renameSync(tmp, out);
process.stdout.write(`build-native: built ${out}\n`);
