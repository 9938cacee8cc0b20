import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { runEpisode } from "../../pipeline/evaluate/episode-runner.js";
import { EvaluationSettings } from "../../pipeline/evaluate/settings.js";
import { agentFactory } from "../../pipeline/evaluate/agents/registry.js";
import { deterministicCustomer } from "../../pipeline/evaluate/customer/deterministic.js";
import { stableJson } from "../../pipeline/core/canonical-json.js";
import { evaluateSample, SAMPLE } from "./runner-fixture.js";

const release = loadEvalRelease(SAMPLE);
const item = release.tasks.find((t) => t.task.id === "fx-treasury-001")!;
// A task whose customer holds private facts (the cancellation's reason and the recall's reason code).
const withFact = release.tasks.find((t) => t.task.id === "fx-treasury-008")!;
const noRuntime = () => {
  throw new Error("no model in this test");
};
const settings = (over: Partial<EvaluationSettings> = {}) =>
  EvaluationSettings.parse({ release: { name: release.name, version: release.version, root_hash: release.root_hash }, agent: "probe:competent", user_sim: "deterministic", conditions: ["E0"], fault_events: 2, fault_duration: 2, runs: 1, tasks: null, domains: null, max_turns: null, max_tool_calls: null, wall_time_ms: 1000, tools: "direct", ablation: "none", seed: 0, ...over });

describe("episode options", () => {
  it("replay:FILE performs the agent actions of a submitted trace; only that trace's task is evaluated", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "replay-")), "submitted.json");
    writeFileSync(file, stableJson(item.golden));
    const o = await evaluateSample({ agent: `replay:${file}` });
    // Every call the agent made in the golden trace (tools, proposals, messages), made again.
    const agentCalls = item.golden.events.filter((e) => e.actor === "agent").length;
    expect(agentCalls).toBeGreaterThan(0);
    expect(o.results.map((r) => [r.task, r.strict_success, r.calls.total, r.golden_calls.total])).toEqual([["fx-treasury-001", true, agentCalls, agentCalls]]);
    writeFileSync(file, "{}");
    await expect(evaluateSample({ agent: `replay:${file}` })).rejects.toThrow(`--agent replay:${file}: replay file ${file} does not parse: task:`);
  });

  it("the wall-time bound ends an episode as wall_time; its trace is judged", async () => {
    let t = 0;
    const out = mkdtempSync(join(tmpdir(), "wall-"));
    // Every reading of the clock moves it 400 ms on: the third call is past the 1000 ms deadline.
    const r = await runEpisode({ item, condition: "E0", run: 0, seed: 1 }, { settings: settings(), agent: agentFactory("probe:competent", noRuntime), customer: deterministicCustomer, out, now: () => (t += 400) });
    expect([r.status, r.end, r.calls.total, r.strict_success]).toEqual(["completed", "wall_time", 2, false]);
  });

  it("gold-docs gives the probe the task's in-force documents (it reads none); full-disclosure puts every private fact in the opening", async () => {
    const out = mkdtempSync(join(tmpdir(), "abl-"));
    const gold = await runEpisode({ item: withFact, condition: "E0", run: 0, seed: 1 }, { settings: settings({ ablation: "gold-docs", wall_time_ms: 60_000 }), agent: agentFactory("probe:competent", noRuntime), customer: deterministicCustomer, out });
    expect([gold.calls.document_reads, gold.strict_success]).toEqual([0, true]);
    const full = await runEpisode({ item: withFact, condition: "E0", run: 0, seed: 1 }, { settings: settings({ ablation: "full-disclosure", agent: "noop", wall_time_ms: 60_000 }), agent: agentFactory("noop", noRuntime), customer: deterministicCustomer, out });
    const trace = JSON.parse(readFileSync(join(out, full.trace_file), "utf8")) as { events: Array<{ kind: string; text: string; facts: string[] }> };
    const facts = withFact.task.scenario.private_facts;
    expect(facts.map((f) => f.id)).toEqual(["reason", "reason_code"]);
    expect(trace.events[0]).toMatchObject({ kind: "customer_message", facts: ["reason", "reason_code"], text: `${withFact.task.scenario.opening_request} ${facts[0]!.statement} ${facts[1]!.statement}` });
    expect(full.user_sim_flags).toEqual([]);
  });

  it("faults are seeded by (task, condition, run): the same evaluation twice gives the same results, byte for byte", async () => {
    const over = { agent: "probe:competent", conditions: ["E1", "E3"] as const, domains: ["fx-treasury"], runs: 2 };
    const a = await evaluateSample({ ...over, conditions: [...over.conditions] });
    const b = await evaluateSample({ ...over, conditions: [...over.conditions] });
    expect(a.results.reduce((n, r) => n + r.faults_injected, 0)).toBeGreaterThan(0);
    const lines = (o: typeof a) => readFileSync(join(o.out, "results.jsonl"), "utf8").trim().split("\n").sort();
    expect(lines(a)).toEqual(lines(b));
    expect(readFileSync(a.summaryPath, "utf8")).toBe(readFileSync(b.summaryPath, "utf8"));
  }, 120_000);

  it("the oracle also reaches 100% at E0 in discovery mode, its operations going through invoke_capability", async () => {
    const o = await evaluateSample({ agent: "oracle", tools: "discovery", domains: ["fx-treasury"] });
    expect(o.results.every((r) => r.strict_success)).toBe(true);
  }, 60_000);
});

describe("what an agent factory is given", () => {
  it("the visible world only: no hidden column, precondition, effect, result SQL, row, generator or event", async () => {
    const { visibleWorld } = await import("../../pipeline/evaluate/agents/visible-world.js");
    const v = visibleWorld(item.domain.world);
    expect(v.tables.flatMap((t) => t.columns.filter((c) => c.hidden))).toEqual([]);
    expect(v.tables.flatMap((t) => t.rows)).toEqual([]);
    expect(v.tables.some((t) => "generate" in t)).toBe(false);
    expect(v.operations.every((o) => o.preconditions.length === 0 && o.effects.length === 0 && o.result === null && o.rules.length === 0)).toBe(true);
    expect([v.events, v.rules]).toEqual([[], []]);
    expect(v.operations.map((o) => o.name)).toEqual(item.domain.world.operations.map((o) => o.name));
    expect(item.domain.world.tables.flatMap((t) => t.columns.filter((c) => c.hidden)).length).toBeGreaterThan(0);
  });
});
