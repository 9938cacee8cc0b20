import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../pipeline/evaluate/evaluate.js";
import { EpisodeResult, EvaluationResult } from "../../pipeline/schemas/evaluation-result.js";
import { Trace } from "../../pipeline/schemas/index.js";
import { scoreDirectory } from "../../pipeline/evaluate/score/score-dir.js";
import { compareEvaluations } from "../../pipeline/evaluate/score/compare.js";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";
import { cleanupTemp } from "../release/helpers.js";
import { envSimRelease } from "./env-sim-release.js";
import { settingsWith } from "./runner-fixture.js";

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

const TASK = "move-funds";
const TERMS = { from_account: "ACC-001", to_account: "ACC-002", amount: 5000 };
/** What propose_transfer answers: the proposal's fields (it has no result statement of its own). */
const PROPOSAL = { proposal_id: "PR-0001", kind: "transfer", terms: TERMS, status: "pending" };
const call = (id: string, name: string, args: Record<string, unknown>): ServerReply => chat(null, { toolCalls: [{ id, name, arguments: JSON.stringify(args) }], usage: [200, 20] });
const offers = (r: SeenRequest, tool: string) => ((r.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).some((t) => t.function.name === tool);
const lastText = (r: SeenRequest) => String((r.body.messages as Array<{ content: unknown }>).at(-1)?.content ?? "");
const exhausted = (who: string): ServerReply => ({ status: 599, body: { error: { message: `${who} script exhausted` } } });

/** One scripted server for every role: the agent (offered send_message), the simulator's answers and renderings, the rubric judge. */
function roles(script: { agent: ServerReply[]; sim?: (r: SeenRequest) => ServerReply; render?: ServerReply[]; judge?: ServerReply[] }) {
  const n = { agent: 0, render: 0, judge: 0 };
  return (r: SeenRequest): ServerReply => {
    if (offers(r, "send_message")) return script.agent[n.agent++] ?? exhausted("agent");
    if (offers(r, "env_sim_answer")) return script.sim?.(r) ?? exhausted("simulator");
    if (offers(r, "env_sim_rendering")) return script.render?.[n.render++] ?? exhausted("renderer");
    if (offers(r, "rubric_judgment")) return script.judge?.[n.judge++] ?? exhausted("judge");
    return exhausted("unknown role");
  };
}

function out(): string {
  const o = mkdtempSync(join(tmpdir(), "envsim-eval-"));
  outs.push(o);
  return o;
}

/** Evaluate the model agent on TASK in mode `env` against the running scripted server, into a fresh folder. */
async function evaluateEnv(env: "simulated" | "hybrid", maxRetries: number, over: Partial<Parameters<typeof settingsWith>[0]> & { simulate_ops?: string[] } = {}) {
  const o = out();
  const outcome = await evaluate({
    release,
    out: o,
    config: testConfig({ base_url: server!.baseUrl, max_retries: maxRetries }),
    runtime: { cache: null, env: {} },
    settings: { ...settingsWith({ agent: "openai:gpt-4.1", tasks: [TASK], ...over }), env, env_sim: "openai:gpt-4.1-mini" },
  });
  return { o, outcome };
}

const CRITERIA = ["transfer-executed", "transfer-approved", "reserve-floor", "others-untouched"];
/** One judge round: every criterion met, except those listed. */
const round = (id: string, notMet: string[] = []) => call(id, "rubric_judgment", { verdicts: CRITERIA.map((c) => ({ criterion: c, met: !notMet.includes(c), reason: notMet.includes(c) ? "no approval is visible before execution" : "seen in the transcript" })) });

describe("simulated and hybrid evaluation (scripted models over HTTP, the real ChatOpenAI client)", () => {
  it("simulated: the simulator answers every business call; a malformed answer is retried then recorded as an errored call; the rubric vote splits 2–1 and every judgment is stored", async () => {
    const agent = [
      call("a1", "propose_transfer", TERMS),
      call("a2", "send_message", { text: "Please approve proposal PR-0001 to move EUR 5,000 from ACC-001 to ACC-002." }),
      call("a3", "execute_transfer", TERMS),
      call("a4", "execute_transfer", TERMS),
      call("a5", "finish", { summary: "Moved EUR 5,000." }),
    ];
    // The simulator: the proposal; the first execution answered twice with an undeclared field (retried, then errored); the second execution right.
    const sim = [
      call("s1", "env_sim_answer", { status: "executed", result: PROPOSAL, proposal_id: "PR-0001" }),
      call("s2", "env_sim_answer", { status: "executed", result: { transfer_id: 3, amount: 5000, balance: 95000 } }),
      call("s3", "env_sim_answer", { status: "executed", result: { transfer_id: 3, amount: 5000, balance: 95000 } }),
      call("s4", "env_sim_answer", { status: "executed", result: { transfer_id: 4, amount: 5000 } }),
    ];
    let s = 0;
    const judge = [round("j1"), round("j2"), round("j3", ["transfer-approved"])];
    server = await ScriptedServer.start(roles({ agent, sim: () => sim[s++] ?? exhausted("simulator"), judge }));
    const { o, outcome } = await evaluateEnv("simulated", 1);
    expect(s).toBe(4);
    const [r] = outcome.results.map((x) => EpisodeResult.parse(x));
    expect([r!.status, r!.env, r!.checks]).toEqual(["completed", "simulated", []]);
    // The retry showed the model its problem: the second request carries the first answer's error.
    const retried = server.requests.filter((q) => offers(q, "env_sim_answer"))[2]!;
    expect(JSON.stringify(retried.body.messages)).toMatch(/undeclared field\(s\) balance/);
    const trace = Trace.parse(JSON.parse(readFileSync(join(o, r!.trace_file), "utf8")));
    const calls = trace.events.filter((e) => e.actor === "agent" && (e.name === "propose_transfer" || e.name === "execute_transfer"));
    expect(calls.map((e) => [e.name, e.status, e.simulated])).toEqual([
      ["propose_transfer", "executed", true],
      ["execute_transfer", "errored", true],
      ["execute_transfer", "executed", true],
    ]);
    expect(calls[0]!.proposal_id).toBe("PR-0001");
    expect(calls[1]!.reason).toMatch(/^simulator_invalid_answer after 2 attempt\(s\): [\s\S]*undeclared field\(s\) balance/);
    expect(calls[2]!.result).toEqual({ transfer_id: 4, amount: 5000 });
    // Nothing ran in the world: the state hash never moved.
    expect(trace.final_state_hash).toBe(trace.events[0]!.state_hash);
    // The rubric: 3 judgments per criterion, the split one kept whole, decided 2–1.
    const approved = r!.rubric!.find((c) => c.id === "transfer-approved")!;
    expect([approved.met, approved.votes, approved.total, approved.split]).toEqual([true, 2, 3, true]);
    expect(approved.judgments.map((j) => [j.round, j.met])).toEqual([[1, true], [2, true], [3, false]]);
    expect(r!.rubric!.every((c) => c.judgments.length === 3)).toBe(true);
    expect(r!.rubric!.filter((c) => c.split).map((c) => c.id)).toEqual(["transfer-approved"]);
    expect([r!.goal, r!.process, r!.protection, r!.strict_success]).toEqual([true, true, true, true]);
    // The judge never saw a check's code, only descriptions and provenance.
    const judged = JSON.stringify(server.requests.find((q) => offers(q, "rubric_judgment"))!.body.messages);
    expect(judged).not.toMatch(/"kind":|state_equals|approval_before_execution/);
    const summary = EvaluationResult.parse(JSON.parse(readFileSync(outcome.summaryPath, "utf8")));
    expect(summary.settings.env).toBe("simulated");
    // synth score re-votes the stored judgments to the same result, without running a check.
    const written = readFileSync(outcome.summaryPath, "utf8");
    const scored = await scoreDirectory(o, { release });
    expect([scored.episodes, scored.disagreements]).toEqual([1, []]);
    expect(readFileSync(scored.summaryPath, "utf8")).toBe(written);
  }, 120_000);

  it("simulated under E1: the fault plan's rules are handed to the simulator and recorded in the trace", async () => {
    const agent = [call("a1", "propose_transfer", TERMS), call("a2", "execute_transfer", TERMS), call("a3", "finish", {})];
    const handed: string[] = [];
    const sim = (r: SeenRequest): ServerReply => {
      const text = lastText(r);
      const rule = /FAULT RULE \(explicit, (\w+)/.exec(text);
      if (rule) {
        handed.push(rule[1]!);
        return call("f", "env_sim_answer", { status: "faulted", message: "upstream error", detail: `returned ${rule[1]}` });
      }
      return call("s", "env_sim_answer", text.includes("propose_transfer {") ? { status: "executed", result: PROPOSAL, proposal_id: "PR-0001" } : { status: "rejected", precondition: "reserve_floor", message: "The transfer would take the account below its reserve floor." });
    };
    server = await ScriptedServer.start(roles({ agent, sim, judge: [round("j1"), round("j2"), round("j3")] }));
    const { o, outcome } = await evaluateEnv("simulated", 0, { conditions: ["E1"], fault_events: 1, fault_duration: 5 });
    const [r] = outcome.results;
    const trace = Trace.parse(JSON.parse(readFileSync(join(o, r!.trace_file), "utf8")));
    const faulted = trace.events.filter((e) => e.fault);
    expect(handed.length).toBeGreaterThan(0);
    expect(faulted.map((e) => e.fault!.type)).toEqual(handed);
    expect(faulted.every((e) => e.fault!.mode === "explicit" && e.fault!.detail.startsWith("rule handed to the simulator") && e.simulated === true)).toBe(true);
    expect(r!.faults_injected).toBe(handed.length);
  }, 120_000);

  it("hybrid: the runtime answers and the checks judge exactly; the agent reads the simulator's renderings, kept in the trace", async () => {
    const agent = [
      call("a1", "propose_transfer", TERMS),
      call("a2", "send_message", { text: "Please approve proposal PR-0001 to move EUR 5,000 from ACC-001 to ACC-002." }),
      call("a3", "execute_transfer", TERMS),
      call("a4", "finish", { summary: "Moved EUR 5,000." }),
    ];
    const render = [call("r1", "env_sim_rendering", { text: "TRANSFER PROPOSAL PR-0001 RECORDED - AWAITING CLIENT APPROVAL" }), call("r2", "env_sim_rendering", { text: "TRF EXECUTED  AMT 5000.00 EUR" })];
    server = await ScriptedServer.start(roles({ agent, render }));
    const { o, outcome } = await evaluateEnv("hybrid", 0, { simulate_ops: ["execute_transfer", "propose_transfer"] });
    const [r] = outcome.results;
    expect([r!.status, r!.env, r!.strict_success]).toEqual(["completed", "hybrid", true]);
    expect(r!.checks.map((c) => [c.check, c.passed])).toEqual(CRITERIA.map((c) => [c, true]).sort((a, b) => CRITERIA.indexOf(a[0] as string) - CRITERIA.indexOf(b[0] as string)));
    const trace = Trace.parse(JSON.parse(readFileSync(join(o, r!.trace_file), "utf8")));
    const ops = trace.events.filter((e) => e.name === "propose_transfer" || e.name === "execute_transfer");
    expect(ops.map((e) => [e.status, e.rendered, e.simulated])).toEqual([
      ["executed", "TRANSFER PROPOSAL PR-0001 RECORDED - AWAITING CLIENT APPROVAL", undefined],
      ["executed", "TRF EXECUTED  AMT 5000.00 EUR", undefined],
    ]);
    // The runtime's own answer stays in the trace; the agent read the rendering.
    expect(ops[1]!.changes.length).toBeGreaterThan(0);
    const agentSaw = JSON.stringify(server.requests.filter((q) => offers(q, "send_message")).at(-1)!.body.messages);
    expect(agentSaw).toContain("TRF EXECUTED  AMT 5000.00 EUR");
    const settings = JSON.parse(readFileSync(join(o, "settings.json"), "utf8")) as { env: string; simulate_ops: string[] };
    expect([settings.env, settings.simulate_ops]).toEqual(["hybrid", ["execute_transfer", "propose_transfer"]]);
    // Results of different modes are never paired (the simulated evaluation of the first test ran on the same release).
    expect(() => compareEvaluations(outs[0]!, o)).toThrow(expect.objectContaining({ code: "COMPARE_MODE_MISMATCH" }));
  }, 120_000);
});
