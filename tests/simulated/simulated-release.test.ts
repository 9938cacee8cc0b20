import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { stableJson } from "../../pipeline/core/canonical-json.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { cleanupTemp, rehash, tempDir, writableCopy } from "../release/helpers.js";
import { runCli } from "../cli/run-cli.js";
import { MODELS, simulatedWorkspace, startScripted } from "./scripted-roles.js";
import { evaluate } from "../../pipeline/evaluate/evaluate.js";
import { SimulatedEvaluation } from "../../pipeline/schemas/index.js";
import { scoreDirectory } from "../../pipeline/evaluate/score/score-dir.js";
import type { ScriptedServer } from "../llm/scripted-server.js";

/*
 * The fixture simulated-only domain built with scripted models (real ChatOpenAI over HTTP), exported
 * into a release that audits clean; tampering a stored vote (with the manifest re-hashed, as a careful
 * forger would) makes the audit fail naming the verdict's file.
 */

const D = "appliance-repairs";
const T = `${D}-001`;
let server: ScriptedServer;
let release: string;
let workspace: ReturnType<typeof simulatedWorkspace>;

beforeAll(async () => {
  workspace = simulatedWorkspace();
  server = await startScripted();
  const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: MODELS, base_url: server.baseUrl, max_retries: 2 } });
  await runBuild({ config, paths: workspace.paths, progress: new Progress("silent") });
  release = exportRelease({ name: "simulated", version: "1.0.0", domains: [D], generatedDir: workspace.paths.generated, sourcesDir: workspace.paths.sources, outRoot: join(tempDir("sim-release"), "releases"), revision: "r" }).dir;
}, 120_000);
afterAll(async () => {
  await server?.close();
  cleanupTemp();
});

describe("a release of a simulated-only domain", () => {
  it("holds the task marked simulated-only, its configuration, trajectory and verdict, the simulated-only schemas, and audits clean without a world", () => {
    const files = Object.keys((JSON.parse(readFileSync(join(release, "manifest.json"), "utf8")) as { files: Record<string, string> }).files).sort();
    expect(files.filter((f) => f.startsWith(`domains/${D}/`) && !f.includes("/docs/") && !f.includes("/shared/"))).toEqual([
      `domains/${D}/documents.json`,
      `domains/${D}/domain.json`,
      `domains/${D}/env-configs/${T}.json`,
      `domains/${D}/tasks/${T}.json`,
      `domains/${D}/trajectories/${T}.json`,
      `domains/${D}/verdicts/${T}.json`,
    ]);
    expect(files.filter((f) => f.startsWith("schemas/simulated-"))).toEqual(["schemas/simulated-domain-card.schema.json", "schemas/simulated-evaluation.schema.json", "schemas/simulated-report.schema.json", "schemas/simulated-task.schema.json", "schemas/simulated-verdict.schema.json"]);
    const manifest = JSON.parse(readFileSync(join(release, "manifest.json"), "utf8")) as { counts: unknown; models: Record<string, string> };
    expect(manifest.counts).toEqual({ domains: 1, documents: 3, tasks: 1, checks: 0, by_domain: { [D]: { industry: "Commerce", documents: 3, tasks: 1 } } });
    expect(manifest.models.calibrator).toMatch(/^openai:scripted-calibrator \(temperature 0, base_url http:\/\/127\.0\.0\.1:\d+\/v1, structured_output native\)$/);
    expect(manifest.models["env-sim"]).toMatch(/^openai:scripted-sim \(/);
    const task = JSON.parse(readFileSync(join(release, `domains/${D}/tasks/${T}.json`), "utf8")) as { simulated_only: boolean };
    expect(task.simulated_only).toBe(true);
    expect(readFileSync(join(release, "README.md"), "utf8")).toContain("## Simulated-only tasks");
    const r = auditRelease(release);
    expect([r.ok, r.hash_failures, r.problems, r.tasks, r.golden_passed]).toEqual([true, [], [], 0, 0]);
    expect(r.simulated).toEqual({ tasks: 1, per_task: [{ domain: D, task: T, criteria: 3, ok: true }] });
    expect(readdirSync(join(release, "domains", D)).sort()).toEqual(["docs", "documents.json", "domain.json", "env-configs", "tasks", "trajectories", "verdicts"]);
  });

  it("synth diff and synth show, which read executable domains, refuse it by name", async () => {
    const { loadRelease } = await import("../../pipeline/release/read-release.js");
    expect(() => loadRelease(release)).toThrow(`synth diff compares executable domains only; this release holds simulated-only domain(s) ${D}`);
    const { openShowRelease } = await import("../../pipeline/show/open-release.js");
    const { findTask } = await import("../../pipeline/show/build-task-view.js");
    const shown = openShowRelease(release, undefined, { strict: true });
    expect(shown.simulated).toEqual([D]);
    expect(() => findTask(shown, T)).toThrow(`${T} is a task of the simulated-only domain ${D}: synth show views executable tasks`);
  });

  it("a stored vote changed (manifest re-hashed) fails the audit, naming the verdict's file and the criterion", () => {
    const dir = writableCopy(release);
    const file = `domains/${D}/verdicts/${T}.json`;
    const verdict = JSON.parse(readFileSync(join(dir, file), "utf8")) as { criteria: Array<{ judgments: Array<{ met: boolean }> }> };
    verdict.criteria[0]!.judgments[0]!.met = false; // 2–1 for met becomes 1–2
    writeFileSync(join(dir, file), stableJson(verdict));
    rehash(dir, file);
    const r = auditRelease(dir);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([{ file, reason: "criterion t1-checked: stored as met=true by 2 of 3 (split true), but its 3 stored judgments re-vote to met=false by 2 of 3 (split true)" }]);
  });

  it("a trajectory changed (manifest re-hashed) no longer has the sha256 its verdict names", () => {
    const dir = writableCopy(release);
    const file = `domains/${D}/trajectories/${T}.json`;
    writeFileSync(join(dir, file), readFileSync(join(dir, file), "utf8").replace("HO-5521", "HO-5522"));
    rehash(dir, file);
    const r = auditRelease(dir);
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => p.file)).toEqual([`domains/${D}/verdicts/${T}.json`]);
    expect(r.problems[0]!.reason).toMatch(/^names trajectory sha256 [0-9a-f]{64}, but domains\/appliance-repairs\/trajectories\/appliance-repairs-001\.json has [0-9a-f]{64}$/);
  });

  it("a rubric criterion citing a clause no document defines (manifest re-hashed) fails the audit, naming the task file", () => {
    const dir = writableCopy(release);
    const file = `domains/${D}/tasks/${T}.json`;
    writeFileSync(join(dir, file), readFileSync(join(dir, file), "utf8").replace('"RD-1.3"', '"RD-7.7"'));
    rehash(dir, file);
    const r = auditRelease(dir);
    expect(r.ok).toBe(false);
    expect(r.problems.map((p) => [p.file, p.reason.slice(0, 70)])).toEqual([[file, expect.stringMatching(/^(solution_plan|rubric)\.\d+\.clauses\.\d+: cites clause RD-7\.7, which no d/)]]);
  });
});

const evalSettings = (env: "executable" | "simulated", agent = "openai:scripted-agent") => ({
  agent,
  user_sim: "deterministic",
  conditions: ["E0" as const],
  fault_events: 1,
  fault_duration: 1,
  runs: 2,
  tasks: null,
  domains: null,
  max_turns: null,
  max_tool_calls: null,
  wall_time_ms: 600_000,
  tools: "direct" as const,
  ablation: "none" as const,
  seed: 0,
  env,
  ...(env === "simulated" ? { env_sim: "openai:scripted-sim" } : {}),
});

describe("evaluating a release's simulated-only tasks", () => {
  it("under --env simulated: each run is an episode of the simulated-only driver (scripted agent and simulator over HTTP), judged by the rubric verifier with every vote stored, reported apart from executable tasks", async () => {
    const s = await startScripted({ evaluate: { t1: ["pass", "fail"] } });
    try {
      const out = join(tempDir("sim-eval"), "out");
      const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { base_url: s.baseUrl, max_retries: 2 } });
      const outcome = await evaluate({ release, out, config, runtime: { cache: null, env: {} }, settings: evalSettings("simulated") });
      const stored = SimulatedEvaluation.parse(JSON.parse(readFileSync(join(out, "simulated-only.json"), "utf8")));
      expect(outcome.simulatedOnly).toEqual(stored);
      expect(stored.skipped).toEqual([]);
      expect(stored.episodes.map((e) => [e.task, e.condition, e.run, e.status, e.end, e.strict_success, e.criteria.map((c) => `${c.id}:${c.votes}/${c.total}`).join(" ")])).toEqual([
        [T, "E0", 0, "completed", "finished", true, "t1-checked:3/3 t1-booked:3/3 t1-free:3/3"],
        [T, "E0", 1, "completed", "finished", false, "t1-checked:3/3 t1-booked:3/3 t1-free:3/3"],
      ]);
      expect(stored.episodes[1]!.criteria.find((c) => c.id === "t1-booked")!.met).toBe(false);
      expect(stored.episodes.every((e) => e.criteria.every((c) => c.judgments.length === 3))).toBe(true);
      expect(stored.strict_success).toEqual({ passed: 1, completed: 2, rate: 0.5 });
      // The agent was offered the configuration's tools; every business call answered by the simulator.
      const trace = JSON.parse(readFileSync(join(out, stored.episodes[0]!.trace!), "utf8")) as { events: Array<{ kind: string; name?: string; simulated?: boolean }> };
      expect(trace.events.filter((e) => e.kind === "tool_call").map((e) => [e.name, e.simulated])).toEqual([["lookup_order", true], ["book_repair", true]]);
      // Apart from executable tasks: summary.json holds none of them; report.html lists them in a section of their own.
      expect(outcome.summary.episodes.total).toBe(0);
      const html = readFileSync(join(out, "report.html"), "utf8");
      expect(html).toContain("<h2>Simulated-only tasks</h2>");
      expect(html).toContain("t1-booked not met 3/3");
      // synth score re-votes the stored judgments and writes the same report.
      const again = await scoreDirectory(out, { release });
      expect(again.disagreements).toEqual([]);
      expect(readFileSync(join(out, "report.html"), "utf8")).toBe(html);
    } finally {
      await s.close();
    }
  }, 120_000);

  it("under --env executable (the default) they are skipped with the reason, never scored by checks, and no model is asked", async () => {
    const out = join(tempDir("sim-eval-exec"), "out");
    const outcome = await evaluate({ release, out, config: resolveConfig({ env: {}, cwd: "/nonexistent" }), settings: evalSettings("executable", "noop") });
    expect(outcome.simulatedOnly).toEqual({
      env: "executable",
      skipped: [{ task: T, domain: D, reason: "a simulated-only task has no world and no executable checks: it runs only under --env simulated (scored by its rubric), never under --env executable" }],
      episodes: [],
      strict_success: { passed: 0, completed: 0, rate: null },
    });
    expect(outcome.results).toEqual([]);
  }, 60_000);

  it("through the CLI (real processes, offline): synth audit lists the task apart, synth evaluate --agent noop skips it with the reason", () => {
    const audit = runCli(["audit", release]);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toContain(`ok   ${D}/${T}: simulated-only, 3 rubric criteria re-voted (not replayed: no world)`);
    expect(audit.stdout).toContain("; 1 of 1 simulated-only tasks check out;");
    const out = join(tempDir("sim-eval-cli"), "out");
    const ev = runCli(["evaluate", release, "--agent", "noop", "--conditions", "E0", "--out", out], { env: { FOUNDRY_MODEL: "", OPENAI_API_KEY: "" } });
    expect(ev.stderr).not.toContain("Error");
    expect(ev.code).toBe(0);
    expect(ev.stdout).toContain(`simulated-only   — (0 of 0 episodes, rubric only; 1 task(s) skipped): ${join(out, "simulated-only.json")}`);
  }, 120_000);
});
