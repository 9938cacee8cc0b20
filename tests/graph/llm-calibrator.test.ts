import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild, type BuildOutcome } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { ValidationReport, type Task } from "../../pipeline/schemas/index.js";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";
import { buildDomainContext } from "../../pipeline/build/load-context.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { askText } from "../../pipeline/agents/plan/actions.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { modelFailureSummary } from "../../pipeline/llm/failure-reason.js";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";

/*
 * The calibrator's llm strategy end to end: a build whose calibrator runs on `openai:gpt-4.1`, the
 * real ChatOpenAI client over HTTP against a scripted OpenAI-compatible server on 127.0.0.1. The
 * server plays a model agent that, per task and run, either works the task's reference plan through
 * the tools (and solves it) or calls finish at once (and does not).
 */

const SLOTS = 3;
const RUNS = 4;

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), "llm-calibrator-"));
  cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
  const card = join(root, "sources/fx-treasury/domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, `task_count: ${SLOTS}`));
  return root;
}

/** The tasks the deterministic designer and rubric writer make for the build's slots, by opening request. */
async function designedTasks(): Promise<Map<string, Task>> {
  const ctx = buildDomainContext("sources/fx-treasury", await extractDomainSop("sources/fx-treasury", {}));
  const out = new Map<string, Task>();
  for (let slot = 0; slot < SLOTS; slot++) {
    const d = await new DeterministicTaskDesigner().design(ctx, slot, new RandomStream(ctx.card.generation.seed).fork(`task-slot/${slot}`));
    if (!d.ok) throw new Error(d.reason);
    const task = await new DeterministicRubricWriter().writeChecks(ctx, d.task);
    out.set(task.scenario.opening_request, task);
  }
  return out;
}

type Message = { role: string; content: string | null; tool_call_id?: string; tool_calls?: Array<{ id: string }> };

/**
 * A model agent behind an OpenAI-compatible server. `solves(task, run)` decides each run (runs
 * are numbered per task, from 1, in the order their first request arrives). It refuses a request
 * without the tools bound, or whose tool messages do not answer the ids of the turn before (as
 * OpenAI does), so a client that drops tools or tool call ids fails the test.
 */
function agentScript(tasks: Map<string, Task>, solves: (task: string, run: number) => boolean) {
  const runs = new Map<string, number>();
  const bad = (message: string): ServerReply => ({ status: 400, body: { error: { message } } });
  return (req: SeenRequest): ServerReply => {
    const messages = req.body.messages as Message[];
    const tools = ((req.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
    if (!tools.includes("finish") || !tools.includes("ask_customer")) return bad("no tools bound");
    const opening = /Customer \S+ says: ([^\n]*)/.exec(messages.find((m) => m.role === "user")?.content ?? "")?.[1] ?? "";
    const task = tasks.get(opening);
    if (!task) return bad(`unknown task: ${opening}`);
    const turn = messages.filter((m) => m.role === "assistant").length;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i] as Message;
      if (m.role !== "tool") continue;
      const asked = [...messages.slice(0, i)].reverse().find((x) => x.role === "assistant")?.tool_calls?.map((c) => c.id) ?? [];
      if (!asked.includes(m.tool_call_id ?? "")) return bad(`tool message answers ${m.tool_call_id}, which the assistant did not call`);
    }
    if (turn === 0) runs.set(task.id, (runs.get(task.id) ?? 0) + 1);
    const run = runs.get(task.id) as number;
    const id = `call_${task.id}_${run}_${turn}`;
    const step = solves(task.id, run) ? task.reference_plan[turn] : undefined;
    if (!step) return chat(null, { toolCalls: [{ id, name: "finish", arguments: JSON.stringify({ summary: "done" }) }] });
    const last = [...messages].reverse().find((m) => m.role === "tool");
    const lastResult = last ? (JSON.parse(last.content ?? "{}") as { proposal_id?: string }) : {};
    const [name, args] =
      step.operation === "ask" ? ["ask_customer", { message: askText(String(step.args.topic)) }]
      : step.operation === "approve" ? ["request_approval", { proposal_id: lastResult.proposal_id }]
      : [step.operation, step.args];
    return chat(null, { toolCalls: [{ id, name: name as string, arguments: JSON.stringify(args) }] });
  };
}

const servers: ScriptedServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe("the calibrator's llm strategy (real ChatOpenAI over HTTP, scripted server)", () => {
  it("drops a task its model solves 4 of 4 times and one solved 0 of 4, keeps one solved 2 of 4 (medium); a changed base URL or temperature misses the calibrate stage cache", async () => {
    const root = workspace();
    const tasks = await designedTasks();
    const byId = new Map([...tasks.values()].map((t) => [t.id, t]));
    expect([...byId.keys()]).toEqual(["fx-treasury-001", "fx-treasury-002", "fx-treasury-003"]);
    // 001: every run; 002: none; 003: runs 1 and 3 of every four (each run is asked anew, not replayed).
    const solves = (task: string, run: number) => (task === "fx-treasury-001" ? true : task === "fx-treasury-002" ? false : (run - 1) % 4 === 0 || (run - 1) % 4 === 2);
    const server = await ScriptedServer.start(agentScript(tasks, solves));
    const other = await ScriptedServer.start(agentScript(tasks, solves));
    servers.push(server, other);
    const paths = { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") };
    const build = (baseUrl: string, temperature: number): Promise<BuildOutcome> =>
      runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { calibrator: "openai:gpt-4.1" }, base_url: baseUrl, temperature, max_retries: 0 } }), paths, progress: new Progress("silent") });
    const calibrateStats = (o: BuildOutcome) => o.stats.find((s) => s.stage === "calibrate");

    const first = await build(server.baseUrl, 0);
    const records = first.domains[0]!.records;
    expect(records.map((r) => [r.id, r.status])).toEqual([["fx-treasury-001", "dropped"], ["fx-treasury-002", "dropped"], ["fx-treasury-003", "verified"]]);
    expect(records.map((r) => r.reason)).toEqual([
      "difficulty: too easy: openai:gpt-4.1 solved 4 of 4 runs (100%)",
      "solvability: not solvable by the calibrator model: openai:gpt-4.1 solved 0 of 4 runs (0%)",
      null,
    ]);
    expect(records[2]!.task!.difficulty).toBe("medium");
    // Requests: a solving run is one per plan step plus finish; a run that does not solve is one (finish).
    const len = (id: string) => byId.get(id)!.reference_plan.length;
    const perBuild = RUNS * (len("fx-treasury-001") + 1) + RUNS * 1 + 2 * (len("fx-treasury-003") + 1) + 2 * 1;
    expect(server.requests).toHaveLength(perBuild);
    expect(calibrateStats(first)).toMatchObject({ cache_hits: 0, model_calls: perBuild });

    const report = ValidationReport.parse(JSON.parse(readFileSync(join(root, "generated/fx-treasury/validation.json"), "utf8")));
    expect(report.tasks.map((t) => [t.task, t.status, t.solve_rate, t.difficulty])).toEqual([
      ["fx-treasury-001", "dropped", { model: "openai:gpt-4.1", runs: 4, solved: 4, rate: 1 }, null],
      ["fx-treasury-002", "dropped", { model: "openai:gpt-4.1", runs: 4, solved: 0, rate: 0 }, null],
      ["fx-treasury-003", "released", { model: "openai:gpt-4.1", runs: 4, solved: 2, rate: 0.5 }, "medium"],
    ]);
    expect(report.tasks[2]!.probes).toEqual({ "openai:gpt-4.1/unaided-1": true, "openai:gpt-4.1/unaided-2": false, "openai:gpt-4.1/unaided-3": true, "openai:gpt-4.1/unaided-4": false });
    expect(report.tasks[2]!.gates.slice(-2)).toEqual([
      { gate: "solvability", passed: true, detail: "the calibrator model solves the task in 2 of 4 runs" },
      { gate: "difficulty", passed: true, detail: "openai:gpt-4.1 solved 2 of 4 runs (50%): medium" },
    ]);

    // Same settings: the build reuses the slots' records whole (reuse-tasks.ts), so the calibrate
    // stage does not run and no request is made.
    const again = await build(server.baseUrl, 0);
    expect(server.requests).toHaveLength(perBuild);
    expect(calibrateStats(again)).toBeUndefined();
    expect(again.domains[0]!.records).toEqual(records);
    // Only the temperature changes: the calibrate stage misses and the model is asked again.
    const warmer = await build(server.baseUrl, 0.5);
    expect(calibrateStats(warmer)).toMatchObject({ cache_hits: 0, model_calls: perBuild });
    expect(server.requests).toHaveLength(2 * perBuild);
    expect(server.requests.at(-1)!.body.temperature).toBe(0.5);
    // Only the base URL changes: it misses again, and the other server is asked.
    const moved = await build(other.baseUrl, 0);
    expect(calibrateStats(moved)).toMatchObject({ cache_hits: 0, model_calls: perBuild });
    expect(other.requests).toHaveLength(perBuild);
    expect(moved.domains[0]!.records.map((r) => r.reason)).toEqual(records.map((r) => r.reason));

    // A model failure in one task's runs drops only that task, naming class, stage, task and model.
    const play = agentScript(tasks, solves);
    const flaky = await ScriptedServer.start((req) => (JSON.stringify(req.body.messages).includes(byId.get("fx-treasury-003")!.scenario.opening_request) ? { status: 500, body: { error: { message: "upstream exploded" } } } : play(req)));
    servers.push(flaky);
    const failing = await build(flaky.baseUrl, 0);
    const after = failing.domains[0]!.records;
    expect(after.map((r) => r.reason)).toEqual([
      records[0]!.reason,
      records[1]!.reason,
      "calibrate: model failure (server_error) in stage calibrate for task fx-treasury-003 on openai:gpt-4.1: openai:gpt-4.1 failed for stage calibrate, item fx-treasury-003 after 1 attempt: server_error (HTTP 500): 500 upstream exploded",
    ]);
    // 001 and 002 as before; 003: its first request, not retried (max_retries 0), and no further run.
    expect(flaky.requests).toHaveLength(RUNS * (len("fx-treasury-001") + 1) + RUNS + 1);
    expect(modelFailureSummary(after.map((r) => ({ domain: "fx-treasury", item: r.id as string, reason: r.reason })))[0]).toBe("1 item(s) dropped for model failures:");
  }, 300_000);
});
