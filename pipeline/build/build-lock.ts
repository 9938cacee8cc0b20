import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { FoundryError } from "../core/errors.js";

/** Whether a process id belongs to a running process (EPERM: it runs, under another user). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock one build holds on a generated folder; release it when the build ends. */
export interface BuildLock {
  file: string;
  release(): void;
}

function readHolder(file: string): { run: string; pid: number } | null {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as { run?: unknown; pid?: unknown };
    return typeof data.run === "string" && typeof data.pid === "number" ? { run: data.run, pid: data.pid } : null;
  } catch {
    return null;
  }
}

/**
 * Take `generated/runs/build.lock` for `run`: created exclusively (O_EXCL), so of two builds on one
 * working copy exactly one wins and the other is refused with BUILD_RUNNING naming the holder. A
 * lock whose process is gone (a killed build) is taken over. The lock is bookkeeping, never an artifact.
 */
export function acquireBuildLock(runsDir: string, run: string): BuildLock {
  mkdirSync(runsDir, { recursive: true });
  const file = join(runsDir, "build.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = readHolder(file);
      if (holder && pidAlive(holder.pid)) {
        throw new FoundryError("BUILD_RUNNING", `build ${holder.run} (pid ${holder.pid}) is running on this working copy; wait for it to end, or resume it later with synth resume ${holder.run}`, { file }, holder.run);
      }
      // A dead holder (or a torn lock file): take it over.
      rmSync(file, { force: true });
      continue;
    }
    writeSync(fd, `${JSON.stringify({ run, pid: process.pid })}\n`);
    closeSync(fd);
    return {
      file,
      release: () => {
        if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
      },
    };
  }
  throw new FoundryError("BUILD_RUNNING", "another build keeps taking the build lock of this working copy", { file });
}
