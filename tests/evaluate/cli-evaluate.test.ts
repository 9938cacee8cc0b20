import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SAMPLE } from "./runner-fixture.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** fx-treasury's tasks in the sample release: one episode each per condition and run. */
const FX_TASKS = readdirSync(join(SAMPLE, "domains", "fx-treasury", "tasks")).filter((f) => f.endsWith(".json")).length;

function synth(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "synth.js"), ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, FOUNDRY_MODEL: "", FOUNDRY_CONFIG: "/dev/null" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function makeWritable(dir: string): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) makeWritable(p);
  }
  chmodSync(dir, 0o755);
}

describe("synth evaluate: usage errors exit 2 quoting the value", () => {
  const cases: Array<[string[], string]> = [
    [["--agent", "oracle", "--runs", "0"], '--runs expects a whole number from 1 and up, got "0"'],
    [["--agent", "oracle", "--conditions", "E0,E7"], '--conditions expects a list of E0, E1, E2, E3, got "E7"'],
    [["--agent", "oracle", "--tools", "magic"], '--tools expects one of direct, discovery, got "magic"'],
    [["--agent", "oracle", "--ablation", "half"], '--ablation expects one of none, gold-docs, full-disclosure, got "half"'],
    [["--agent", "oracle", "--max-tool-calls", "-3"], '--max-tool-calls expects a whole number from 1 and up, got "-3"'],
    [["--agent", "probe:lazy"], '--agent probe:NAME expects NAME one of competent, goal-rusher, newest-version, first-found, fact-guesser, no-recheck, got "lazy"'],
    [["--agent", "gpt4"], '--agent expects oracle, noop, replay:FILE, probe:NAME or provider:model, got "gpt4"'],
    [["--agent", "oracle", "--user-sim", "smart"], '--user-sim expects deterministic or provider:model, got "smart"'],
    [["--agent", "probe:competent", "--user-sim", "openai:gpt-4.1"], '--agent probe:competent works synchronously and takes only --user-sim deterministic, got "openai:gpt-4.1"'],
    [["--agent", "oracle", "--tasks", "no-such-task"], '--tasks: the release has no task "no-such-task"'],
    [["--agent", "oracle", "--domains", "fx-treasury,space"], `--domains: the release has no domain "space" (it has ${readdirSync(join(SAMPLE, "domains")).sort().join(", ")})`],
  ];
  for (const [args, message] of cases) {
    it(args.join(" "), () => {
      const out = mkdtempSync(join(tmpdir(), "eval-cli-"));
      const r = synth(["evaluate", SAMPLE, "--out", out, ...args]);
      expect(r.stderr).toContain(message);
      expect(r.code).toBe(2);
    });
  }
});

describe("synth evaluate: refusals", () => {
  it("a tampered release is refused before anything runs, naming the file; nothing is written", () => {
    const copy = join(mkdtempSync(join(tmpdir(), "eval-tamper-")), "1.0.0");
    cpSync(SAMPLE, copy, { recursive: true });
    makeWritable(copy);
    const task = join(copy, "domains", "fx-treasury", "tasks", "fx-treasury-001.json");
    const original = readFileSync(task, "utf8");
    const tampered = original.replace(/"max_turns": (\d+)/, (_m, n: string) => `"max_turns": ${Number(n) + 1}`);
    expect(tampered).not.toBe(original);
    writeFileSync(task, tampered);
    const out = mkdtempSync(join(tmpdir(), "eval-cli-"));
    const r = synth(["evaluate", copy, "--agent", "oracle", "--conditions", "E0", "--out", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${task}: [RELEASE_TAMPERED] refusing to evaluate: content changed: sha256`);
    expect(readdirSync(out)).toEqual([]);
  });

  it("an --out of another agent is refused; different settings are refused and --fresh starts over", () => {
    const out = mkdtempSync(join(tmpdir(), "eval-cli-"));
    const first = synth(["evaluate", SAMPLE, "--agent", "noop", "--conditions", "E0", "--domains", "fx-treasury", "--out", out]);
    expect(first.code).toBe(0);
    expect(FX_TASKS).toBeGreaterThan(0);
    expect(first.stdout).toContain(`noop on sample@1.7.0 (user-sim deterministic): ${FX_TASKS} episodes, ${FX_TASKS} run now, 0 already finished, 0 errored`);
    const other = synth(["evaluate", SAMPLE, "--agent", "oracle", "--conditions", "E0", "--domains", "fx-treasury", "--out", out]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("[EVALUATION_OUT_CONFLICT] this folder holds the evaluation of noop on sample@1.7.0, not of oracle on sample@1.7.0: choose another --out");
    const differs = synth(["evaluate", SAMPLE, "--agent", "noop", "--conditions", "E0,E1", "--domains", "fx-treasury", "--out", out]);
    expect(differs.code).toBe(1);
    expect(differs.stderr).toContain('[EVALUATION_SETTINGS_CONFLICT] settings differ from the stored ones (conditions: stored ["E0"], now ["E0","E1"])');
    const again = synth(["evaluate", SAMPLE, "--agent", "noop", "--conditions", "E0", "--domains", "fx-treasury", "--out", out]);
    expect(again.stdout).toContain(`${FX_TASKS} episodes, 0 run now, ${FX_TASKS} already finished`);
    const fresh = synth(["evaluate", SAMPLE, "--agent", "noop", "--conditions", "E0,E1", "--domains", "fx-treasury", "--out", out, "--fresh"]);
    expect(fresh.code).toBe(0);
    // Two conditions now: every task twice.
    expect(fresh.stdout).toContain(`${2 * FX_TASKS} episodes, ${2 * FX_TASKS} run now, 0 already finished`);
    expect(readFileSync(join(out, "results.jsonl"), "utf8").trim().split("\n")).toHaveLength(2 * FX_TASKS);
  }, 120_000);

  it("warns when --concurrency asks for more episodes at once than model calls may run at once per provider", () => {
    const run = (n: string) =>
      spawnSync(process.execPath, [join(ROOT, "bin", "synth.js"), "evaluate", SAMPLE, "--agent", "openai:gpt-4.1", "--concurrency", n, "--tasks", "fx-treasury-001", "--conditions", "E0", "--out", mkdtempSync(join(tmpdir(), "eval-conc-"))], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, FOUNDRY_MODEL: "", FOUNDRY_CONFIG: "/dev/null", FOUNDRY_CONCURRENCY: "4", FOUNDRY_BASE_URL: "", OPENAI_API_KEY: "" },
      });
    const eight = run("8");
    expect(eight.stderr).toContain("warning: --concurrency 8 runs 8 episodes at once, but model calls stay limited to 4 at once per provider (the concurrency setting, FOUNDRY_CONCURRENCY); raise it as far as your API key's rate limit allows\n");
    // No key here: the run stops before any work, after the warning.
    expect(eight.stderr).toContain("[LLM_AUTH] OPENAI_API_KEY is not set");
    expect(run("4").stderr).not.toContain("warning:");
  }, 60_000);
});
