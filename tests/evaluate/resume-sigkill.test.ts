import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SAMPLE } from "./runner-fixture.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ARGS = ["evaluate", SAMPLE, "--agent", "probe:competent", "--domains", "fx-treasury", "--concurrency", "2"];
const ENV = { ...process.env, FOUNDRY_MODEL: "", FOUNDRY_CONFIG: "/dev/null" };

/** fx-treasury's tasks in the sample release × the four default conditions. */
const EPISODES = readdirSync(join(SAMPLE, "domains", "fx-treasury", "tasks")).filter((f) => f.endsWith(".json")).length * 4;
const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l.endsWith("}")).length : 0);

describe("resume after SIGKILL", () => {
  it("a killed evaluation loses at most the episodes in flight; the same command resumes and ends with the summary of an uninterrupted run", async () => {
    const out = mkdtempSync(join(tmpdir(), "eval-kill-"));
    const results = join(out, "results.jsonl");
    const child = spawn(process.execPath, [join(ROOT, "bin", "synth.js"), ...ARGS, "--out", out], { cwd: ROOT, env: ENV, stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    while (lines(results) < 10) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const before = lines(results);
    expect(before).toBeGreaterThanOrEqual(10);
    expect(before).toBeLessThan(EPISODES);

    const resumed = spawnSync(process.execPath, [join(ROOT, "bin", "synth.js"), ...ARGS, "--out", out], { cwd: ROOT, env: ENV, encoding: "utf8" });
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain(`${EPISODES} episodes, ${EPISODES - before} run now, ${before} already finished, 0 errored`);
    const stored = readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { task: string; condition: string; run: number });
    expect(new Set(stored.map((r) => `${r.task}/${r.condition}/${r.run}`)).size).toBe(EPISODES);
    expect(stored).toHaveLength(EPISODES);

    const whole = mkdtempSync(join(tmpdir(), "eval-whole-"));
    const clean = spawnSync(process.execPath, [join(ROOT, "bin", "synth.js"), ...ARGS, "--out", whole], { cwd: ROOT, env: ENV, encoding: "utf8" });
    expect(clean.status).toBe(0);
    expect(readFileSync(join(out, "summary.json"), "utf8")).toBe(readFileSync(join(whole, "summary.json"), "utf8"));
    expect(readFileSync(join(out, "report.html"), "utf8")).toBe(readFileSync(join(whole, "report.html"), "utf8"));
  }, 180_000);
});
