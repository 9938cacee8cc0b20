import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { acquireBuildLock } from "../../pipeline/build/build-lock.js";

const config = resolveConfig({ env: {}, cwd: "/nonexistent" });

async function caught(p: Promise<unknown>): Promise<FoundryError> {
  try {
    await p;
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a FoundryError");
}

describe("the build lock", () => {
  it("refuses a second build on the same working copy while one runs, naming its run id and pid", async () => {
    const root = mkdtempSync(join(tmpdir(), "lock-"));
    const runs = join(root, "generated", "runs");
    mkdirSync(runs, { recursive: true });
    const running = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      writeFileSync(join(runs, "build.lock"), JSON.stringify({ run: "run-aaaa0001", pid: running.pid }));
      const e = await caught(runBuild({ config, domains: ["fx-treasury"], paths: { sources: "sources", sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") }));
      expect(e.code).toBe("BUILD_RUNNING");
      expect(e.message).toBe(`build run-aaaa0001 (pid ${running.pid}) is running on this working copy; wait for it to end, or resume it later with synth resume run-aaaa0001`);
      // Nothing of the refused build was recorded or written.
      expect(existsSync(join(runs, "index.json"))).toBe(false);
      expect(existsSync(join(root, "generated", "fx-treasury"))).toBe(false);
    } finally {
      running.kill();
    }
  });

  it("takes over the lock of a build whose process is gone, and gives it back at the end", () => {
    const root = mkdtempSync(join(tmpdir(), "lock-stale-"));
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const pid = Number(dead.stdout);
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "build.lock"), JSON.stringify({ run: "run-dead0001", pid }));
    const lock = acquireBuildLock(root, "run-new00001");
    expect(JSON.parse(readFileSync(lock.file, "utf8"))).toEqual({ run: "run-new00001", pid: process.pid });
    expect(() => acquireBuildLock(root, "run-other001")).toThrow(`build run-new00001 (pid ${process.pid}) is running on this working copy`);
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });
});
