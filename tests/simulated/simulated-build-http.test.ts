import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { sha256 } from "../../pipeline/core/canonical-json.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { SimulatedReport, SimulatedTask, SimulatedVerdict } from "../../pipeline/schemas/index.js";
import { MODELS, simulatedWorkspace, startScripted } from "./scripted-roles.js";
import type { ScriptedServer } from "../llm/scripted-server.js";

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as unknown;

describe("a simulated-only domain built with scripted models (real ChatOpenAI over HTTP)", () => {
  it("writes the configuration, designs, solves with the plan, verifies by majority, repairs, calibrates without the plan, and keeps 1 of 4 tasks with every vote stored", async () => {
    const { paths } = simulatedWorkspace();
    const s = await startScripted();
    server = s;
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: MODELS, base_url: s.baseUrl, max_retries: 2 } });
    const outcome = await runBuild({ config, paths, progress: new Progress("silent") });
    expect(outcome.domains.map((d) => [d.domain, d.released, d.dropped])).toEqual([["appliance-repairs", 1, 3]]);
    const gen = join(paths.generated, "appliance-repairs");

    const report = SimulatedReport.parse(read(join(gen, "validation.json")));
    expect(report.tasks.map((t) => [t.task, t.status, t.repairs.length, t.solve_rate ? `${t.solve_rate.solved}/${t.solve_rate.runs}` : null, t.difficulty, t.drop_reason])).toEqual([
      ["appliance-repairs-001", "released", 0, "1/2", "medium", null],
      ["appliance-repairs-002", "dropped", 0, "2/2", null, "too easy: openai:scripted-calibrator solved 2 of 2 runs (100%)"],
      ["appliance-repairs-003", "dropped", 1, "0/2", null, "not solvable by the calibrator model: openai:scripted-calibrator solved 0 of 2 runs (0%)"],
      [
        "appliance-repairs-004",
        "dropped",
        1,
        null,
        null,
        "rubric: the solver's trajectory with the plan does not meet t4-booked (3 of 3 judgments not met) (still failing after 1 repair attempt; the domain card allows 1)",
      ],
    ]);
    expect(report.dropped.map((d) => d.slot)).toEqual([1, 2, 3]);

    // The first design of task 1 called a tool the configuration lacks and cited an undefined clause: shown the problems, asked again.
    expect(s.designed.get(1)).toBe(2);
    const retry = s.requests.filter((r) => r.body.model === "scripted-designer").map((r) => JSON.stringify(r.body.messages)).find((m) => m.includes("RP-9.9 ") || m.includes("RP-9.9,") || m.includes("clause RP-9.9"));
    expect(retry).toContain("calls refund_order, which is not a tool of the environment configuration");
    expect(retry).toContain("cites clause RP-9.9, which no document of the domain defines");

    // The solver read the plan; the calibrator's runs did not.
    const firstAgentText = (model: string) => s.requests.filter((r) => r.body.model === model).map((r) => JSON.stringify(r.body.messages));
    expect(firstAgentText("scripted-solver").every((m) => m.includes("Solution plan"))).toBe(true);
    expect(firstAgentText("scripted-calibrator").some((m) => m.includes("Solution plan"))).toBe(false);

    // Released files: the task marked simulated-only, its configuration in two parts, trajectory and verdict with every vote.
    expect(readdirSync(join(gen, "tasks"))).toEqual(["appliance-repairs-001.json"]);
    const task = SimulatedTask.parse(read(join(gen, "tasks/appliance-repairs-001.json")));
    expect([task.simulated_only, task.difficulty]).toEqual([true, "medium"]);
    expect(readdirSync(join(gen, "env-configs")).sort()).toEqual(["appliance-repairs-001.json", "shared"]);
    expect(readdirSync(join(gen, "env-configs/shared"))).toHaveLength(1);
    const trajectory = readFileSync(join(gen, "trajectories/appliance-repairs-001.json"));
    const verdict = SimulatedVerdict.parse(read(join(gen, "verdicts/appliance-repairs-001.json")));
    expect(verdict.trajectory_sha256).toBe(sha256(trajectory));
    expect(verdict.criteria.map((c) => [c.id, c.met, c.votes, c.total, c.split, c.judgments.map((j) => j.met)])).toEqual([
      ["t1-checked", true, 2, 3, true, [true, false, true]],
      ["t1-booked", true, 3, 3, false, [true, true, true]],
      ["t1-free", true, 3, 3, false, [true, true, true]],
    ]);
    expect(verdict.passed).toBe(true);
    expect(readdirSync(gen).sort()).toEqual(["build-record.json", "documents.json", "env-configs", "report.json", "tasks", "trajectories", "validation.json", "verdicts"]);

    // Same inputs, same bytes: a rebuild is answered by the response cache (no request reaches the server) and changes no file.
    const files = (dir: string): Record<string, string> => Object.fromEntries(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => [join(e.parentPath, e.name), readFileSync(join(e.parentPath, e.name), "utf8")]));
    const before = files(gen);
    const asked = s.requests.length;
    const again = await runBuild({ config, paths, progress: new Progress("silent") });
    expect(again.domains.map((d) => [d.released, d.dropped, d.written])).toEqual([[1, 3, []]]);
    expect(s.requests.length).toBe(asked);
    expect(files(gen)).toEqual(before);
  }, 120_000);
});
