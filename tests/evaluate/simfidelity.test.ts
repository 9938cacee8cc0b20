import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../pipeline/evaluate/evaluate.js";
import { loadEvalRelease, type EvalTask } from "../../pipeline/evaluate/load-release.js";
import { simFidelity } from "../../pipeline/evaluate/simfidelity/run-simfidelity.js";
import { rankingSettings } from "../../pipeline/evaluate/simfidelity/agent-runs.js";
import { SimFidelityReport } from "../../pipeline/evaluate/simfidelity/report-schema.js";
import { callRequest, simulatorSystem } from "../../pipeline/evaluate/env-sim/sim-prompt.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { Trace, type TraceEvent } from "../../pipeline/schemas/index.js";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";
import { cleanupTemp } from "../release/helpers.js";
import { envSimRelease } from "./env-sim-release.js";

/** Executable strict success on the fixture (measured, E0): oracle and every probe solve release-payment, not move-funds; noop solves nothing. */
const AGENTS = ["oracle", "probe:competent", "noop"];
const SIMULATOR = "openai:gpt-4.1-mini";

let release: string;
let server: ScriptedServer | null = null;
const outs: string[] = [];
beforeAll(() => {
  release = envSimRelease();
}, 120_000);
afterEach(async () => {
  await server?.close();
  server = null;
});
afterAll(() => {
  for (const o of outs) rmSync(o, { recursive: true, force: true });
  cleanupTemp();
});

function tempOut(): string {
  const o = mkdtempSync(join(tmpdir(), "simfid-"));
  outs.push(o);
  return o;
}

const isRow = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const offers = (r: SeenRequest, tool: string) => ((r.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).some((t) => t.function.name === tool);
const messages = (r: SeenRequest) => (r.body.messages as Array<{ content: unknown }>).map((m) => String(m.content ?? ""));
const answer = (id: string, name: string, args: unknown): ServerReply => chat(null, { toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
/** Leaf fields of a real result, counted here independently: a row's fields, every row's of a list. */
const fieldsOf = (result: unknown) => (isRow(result) ? Object.keys(result).length : Array.isArray(result) ? result.reduce((n: number, row) => n + Object.keys(row as object).length, 0) : result === null || result === undefined ? 0 : 1);

/** One call the simulator answers in a real trace: the teacher-forced request it gets, and the world's event. */
interface RealCall {
  source: string;
  task: string;
  /** The tool's first declared precondition (a scripted rejection names it). */
  precondition: { id: string; message: string } | undefined;
  request: string;
  event: TraceEvent;
}

/** A rejection on a declared precondition, as the answer schema takes it. */
const rejection = (p: { id: string; message: string }) => ({ status: "rejected", precondition: p.id, message: p.message });

/**
 * The world's answer as a simulator answer; `wrong` changes exactly one leaf field of an executed
 * result. A rejection the answer schema cannot state (approval_required names no precondition)
 * is answered with the tool's first precondition: valid, and its status disagrees.
 */
function simAnswer(c: Pick<RealCall, "event" | "precondition">, wrong: boolean): unknown {
  const e = c.event;
  const err = isRow(e.result) && isRow(e.result.error) ? e.result.error : null;
  if (e.status === "rejected") return typeof err?.precondition === "string" ? { status: "rejected", precondition: err.precondition, message: err.message } : rejection(c.precondition!);
  let result = structuredClone(e.result ?? null);
  if (wrong && isRow(result)) {
    const k = Object.keys(result)[0]!;
    result = { ...result, [k]: `${String(result[k])}-wrong` };
  } else if (wrong && Array.isArray(result)) {
    const row = result[0] as Record<string, unknown>;
    const k = Object.keys(row).at(-1)!;
    result[0] = { ...row, [k]: `${String(row[k])}-wrong` };
  }
  return { status: "executed", result, ...(e.proposal_id ? { proposal_id: e.proposal_id } : {}) };
}

/** The calls of one trace the simulator answers, with the teacher-forced request each gets. */
function realCalls(source: string, t: EvalTask, trace: Pick<Trace, "events">): RealCall[] {
  const tools = new Map(t.env_config!().tools.filter((x) => x.kind === "operation" || x.kind === "query" || x.kind === "wait").map((x) => [x.name, x]));
  return trace.events.flatMap((e, i) => (e.actor === "agent" && e.kind !== "agent_message" && tools.has(e.name) ? [{ source, task: t.task.id, precondition: tools.get(e.name)!.preconditions[0], event: e, request: callRequest(trace.events.slice(0, i), { name: e.name, args: e.args }, tools.get(e.name)!, null) }] : []));
}

/** The agents' executable traces, produced here with the evaluator (the same settings simfidelity evaluates with). */
async function agentTraces(tasks: readonly EvalTask[]): Promise<RealCall[]> {
  const calls: RealCall[] = [];
  for (const agent of AGENTS) {
    const out = tempOut();
    const o = await evaluate({ release, settings: rankingSettings(agent, "executable", SIMULATOR, { tasks: null, domains: null }), out, config: testConfig(), runtime: { cache: null, env: {} } });
    for (const r of o.results) calls.push(...realCalls(agent, tasks.find((t) => t.task.id === r.task)!, Trace.parse(JSON.parse(readFileSync(join(out, r.trace_file), "utf8")))));
  }
  return calls;
}

/** The call line of a simulator request (`NAME {args}`). */
const callLine = (human: string) => human.split("\n\nAnswer this call: ")[1]!.split("\n\n")[0]!;

/**
 * The scripted server: a teacher-forced request (known by its exact text) gets the world's answer,
 * with one field wrong when it is in `wrongKeys`. A simulated episode's request gets
 * `episodeRule`'s answer when it gives one, else the world's answer to the same call of the same
 * task when one was seen, else the first precondition's rejection. The rubric judge meets every
 * criterion exactly when the transcript shows release_payment executed.
 */
function script(real: RealCall[], wrongKeys: ReadonlySet<string>, systems: Map<string, EvalTask>, episodeRule: (human: string, name: string) => unknown) {
  const teacher = new Map(real.map((c) => [c.request, simAnswer(c, wrongKeys.has(c.request))]));
  const world = new Map(real.map((c) => [`${c.task} ${callLine(c.request)}`, c]));
  let n = 0;
  return (r: SeenRequest): ServerReply => {
    const [system, human] = [messages(r)[0]!, messages(r).at(-1)!];
    if (offers(r, "rubric_judgment")) {
      const ids = [...human.matchAll(/^- (\S+) \[(?:goal|process|protection)\]:/gm)].map((m) => m[1]!);
      const met = /agent release_payment .* → executed/.test(human);
      return answer(`j${n++}`, "rubric_judgment", { verdicts: ids.map((criterion) => ({ criterion, met, reason: "scripted" })) });
    }
    if (!offers(r, "env_sim_answer")) return { status: 599, body: { error: { message: "unknown role" } } };
    const known = teacher.get(human);
    if (known !== undefined) return answer(`t${n++}`, "env_sim_answer", known);
    const call = callLine(human);
    const name = call.split(" ")[0]!;
    const ruled = episodeRule(human, name);
    if (ruled !== null) return answer(`r${n++}`, "env_sim_answer", ruled);
    const task = systems.get(system)!;
    const seen = world.get(`${task.task.id} ${call}`);
    const pre = task.env_config!().tools.find((x) => x.name === name)?.preconditions[0];
    return answer(`e${n++}`, "env_sim_answer", seen ? simAnswer(seen, false) : pre ? rejection(pre) : { status: "executed", result: null });
  };
}

describe("synth simfidelity: a simulator wrong on a known share of fields is reported with exactly that share, and the ranking it gives is compared", () => {
  it("golden and agent traces teacher-forced (every other distinct request has one field wrong); ranking agreement 1 with a faithful simulator, 1/3 when the probe's release is rejected", async () => {
    const r = loadEvalRelease(release);
    const real = [...r.tasks.flatMap((t) => realCalls("golden", t, t.golden)), ...(await agentTraces(r.tasks))];
    // Every other distinct request (with fields to get wrong) is answered with exactly one field wrong.
    const distinct = [...new Set(real.filter((c) => c.event.status === "executed" && fieldsOf(c.event.result) > 0).map((c) => c.request))];
    const wrongKeys = new Set(distinct.filter((_, i) => i % 2 === 1));
    expect(wrongKeys.size).toBeGreaterThan(0);
    const expected = (calls: RealCall[]) => {
      const fields = calls.filter((c) => c.event.status === "executed").reduce((n, c) => n + fieldsOf(c.event.result), 0);
      const wrong = calls.filter((c) => wrongKeys.has(c.request)).length;
      return { calls: calls.length, fields, field_agreement: fields === 0 ? null : (fields - wrong) / fields, status_agreement: calls.filter((c) => c.event.status === "executed" || (c.event.status === "rejected" && isRow(c.event.result) && isRow(c.event.result.error) && typeof c.event.result.error.precondition === "string")).length / calls.length };
    };
    const systems = new Map(r.tasks.map((t) => [simulatorSystem(t.env_config!()), t]));

    // 1. A simulator faithful in the simulated episodes: the ranking is the executable one.
    server = await ScriptedServer.start(script(real, wrongKeys, systems, () => null));
    const out = tempOut();
    const { report, jsonPath, htmlPath } = await simFidelity({ release, simulator: SIMULATOR, agents: AGENTS, tasks: null, domains: null, out, config: testConfig({ base_url: server.baseUrl, max_retries: 0 }), runtime: { cache: null, env: {} } });
    for (const source of ["golden", ...AGENTS]) {
      const want = expected(real.filter((c) => c.source === source));
      const got = report.by_source[source];
      if (want.calls === 0) expect(got).toBeUndefined();
      else expect({ calls: got!.calls, fields: got!.fields, field_agreement: got!.field_agreement, status_agreement: got!.status_agreement }).toEqual(want);
    }
    const all = expected(real);
    expect([report.overall.calls, report.overall.fields, report.overall.field_agreement, report.overall.invented, report.overall.missing]).toEqual([all.calls, all.fields, all.field_agreement, 0, 0]);
    expect(report.by_source.golden!.field_agreement).toBeLessThan(1);
    expect(report.by_source["probe:competent"]!.calls).toBeGreaterThan(0);
    expect(report.calls.filter((c) => c.source === "probe:competent").map((c) => c.operation)).toEqual(real.filter((c) => c.source === "probe:competent").map((c) => c.event.name));
    // Executable: oracle and the probe solve 1 of 2 tasks, noop none; the faithful simulator and the judge agree.
    expect(report.ranking.agents).toEqual([
      { agent: "oracle", executable: 0.5, simulated: 0.5, episodes: { executable: 2, simulated: 2 } },
      { agent: "probe:competent", executable: 0.5, simulated: 0.5, episodes: { executable: 2, simulated: 2 } },
      { agent: "noop", executable: 0, simulated: 0, episodes: { executable: 2, simulated: 2 } },
    ]);
    expect(report.ranking.pairs.map((p) => [p.a, p.b, p.executable, p.simulated, p.agrees])).toEqual([
      ["oracle", "probe:competent", "tie", "tie", true],
      ["oracle", "noop", "a", "a", true],
      ["probe:competent", "noop", "a", "a", true],
    ]);
    expect(report.ranking.agreement).toBe(1);
    expect(SimFidelityReport.parse(JSON.parse(readFileSync(jsonPath, "utf8")))).toEqual(report);
    const html = readFileSync(htmlPath, "utf8");
    expect(html).toContain('<section id="simfidelity">');
    expect(html).toContain("Pairwise ranking agreement: <strong>100.0%</strong> of 3 pairs compared.");
    expect(html).toContain("<h2>Per trace source</h2>");
    await server.close();

    // 2. The simulator rejects release_payment once documents were read (only the probe reads them): the probe drops to 0.
    const rejectProbe = (human: string, name: string) => {
      if (name !== "release_payment" || !human.includes("agent called list_reference_documents")) return null;
      const pre = r.tasks.flatMap((t) => t.env_config!().tools).find((x) => x.name === name)!.preconditions[0]!;
      return rejection(pre);
    };
    server = await ScriptedServer.start(script(real, wrongKeys, systems, rejectProbe));
    const second = await simFidelity({ release, simulator: SIMULATOR, agents: AGENTS, tasks: null, domains: null, out: tempOut(), config: testConfig({ base_url: server.baseUrl, max_retries: 0 }), runtime: { cache: null, env: {} } });
    // Teacher-forced figures are unchanged (those requests are answered as before).
    expect(second.report.by_source).toEqual(report.by_source);
    expect(second.report.ranking.agents.map((a) => [a.agent, a.executable, a.simulated])).toEqual([
      ["oracle", 0.5, 0.5],
      ["probe:competent", 0.5, 0],
      ["noop", 0, 0],
    ]);
    // oracle·probe: tie vs oracle higher (disagrees); oracle·noop agrees; probe·noop: probe higher vs tie (disagrees).
    expect(second.report.ranking.pairs.map((p) => p.agrees)).toEqual([false, true, false]);
    expect(second.report.ranking.agreement).toBe(1 / 3);
  }, 300_000);
});
