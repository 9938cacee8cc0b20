import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { evaluate } from "../../pipeline/evaluate/evaluate.js";
import { EvaluationResult } from "../../pipeline/schemas/evaluation-result.js";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";

const RELEASES = fileURLToPath(new URL("../../generated/releases", import.meta.url));

let server: ScriptedServer | null = null;
let out: string | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  if (out) rmSync(out, { recursive: true, force: true });
  out = null;
});

const call = (id: string, name: string, args: Record<string, unknown>): ServerReply => chat(null, { toolCalls: [{ id, name, arguments: JSON.stringify(args) }], usage: [300, 30] });
const offers = (r: SeenRequest, tool: string) => ((r.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).some((t) => t.function.name === tool);

/** fx-treasury-011: two releases, a duplicate suspicion cleared with the invoice reference only the customer knows, a deferral. */
const TASK = "fx-treasury-011";
const item = loadEvalRelease("sample", RELEASES).tasks.find((t) => t.task.id === TASK)!;
const fact = item.task.scenario.private_facts[0]!;
/** The agent's one question in the golden trace: the line that asks the customer for the fact. */
const QUESTION = item.golden.events.find((e) => e.kind === "agent_message")!.text!;

/**
 * fx-treasury-011 as a model agent solves it: the golden trace's agent calls, its question through
 * send_message, then finish. Run 0 asks for the invoice ref; run 1 only greets instead, and its
 * customer volunteers it.
 */
function agentScript(run: number): ServerReply[] {
  const calls = item.golden.events.filter((e) => e.actor === "agent");
  return [
    ...calls.map((e, i) =>
      e.kind === "agent_message" ? call(`a${run}-${i}`, "send_message", { text: run === 0 ? (e.text ?? "") : "Hello, I am looking into your payments now." }) : call(`a${run}-${i}`, e.name, e.args),
    ),
    call(`a${run}-f`, "finish", { summary: "Released PAY-10074 and PAY-10066, cleared the duplicate suspicion on PAY-10062 and deferred it." }),
  ];
}
/** The agent's calls up to and including its question (run 0). */
const UP_TO_QUESTION = item.golden.events.filter((e) => e.actor === "agent").findIndex((e) => e.kind === "agent_message") + 1;

function settings(runs: number) {
  return {
    agent: "openai:gpt-4.1",
    user_sim: "openai:gpt-4.1-mini",
    conditions: ["E0" as const],
    fault_events: 2,
    fault_duration: 2,
    runs,
    tasks: [TASK],
    domains: null,
    max_turns: null,
    max_tool_calls: null,
    wall_time_ms: 60_000,
    tools: "direct" as const,
    ablation: "none" as const,
    seed: 0,
  };
}

describe("synth evaluate with the llm customer (both models over HTTP, the real ChatOpenAI client)", () => {
  it("a model agent and an llm customer: full episodes, the unprompted disclosure flagged and left out of strict_success_unflagged", async () => {
    // One fact, asked once in the golden trace.
    expect(item.task.scenario.private_facts.map((f) => f.id)).toEqual(["invoice_ref"]);
    expect(item.golden.events.filter((e) => e.kind === "agent_message")).toHaveLength(1);
    const agentReplies = [...agentScript(0), ...agentScript(1)];
    // Run 0: the sentence the customer is told to say when asked; run 1: the same sentence, volunteered after a greeting.
    const volunteered = `Thanks. ${fact.statement} In case you need it.`;
    const customerReplies = [call("u1", "reply", { message: fact.statement }), call("u2", "reply", { message: volunteered })];
    let a = 0;
    let u = 0;
    // One server for both roles: a request offering `reply` is the customer's, one offering `send_message` the agent's.
    server = await ScriptedServer.start((req) => (offers(req, "reply") ? (customerReplies[u++] ?? { status: 599, body: { error: { message: "customer script exhausted" } } }) : (agentReplies[a++] ?? { status: 599, body: { error: { message: "agent script exhausted" } } })));
    out = mkdtempSync(join(tmpdir(), "e3-eval-"));
    const outcome = await evaluate({
      release: "sample",
      releases: RELEASES,
      out,
      config: testConfig({ base_url: server.baseUrl, max_retries: 0 }),
      runtime: { cache: null, env: {} },
      settings: settings(2),
    });
    expect([a, u]).toEqual([agentReplies.length, 2]);
    // The customer model sees its own prompt and tools, never the agent's.
    const first = server.requests.find((r) => offers(r, "reply"))!;
    expect(first.body.model).toBe("gpt-4.1-mini");
    expect((first.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(["reply", "review_proposal"]);
    expect(QUESTION).toBe("To continue I need one detail from you: could you give me the invoice ref?");
    expect((first.body.messages as Array<{ role: string; content: string }>).at(-1)).toEqual({ role: "user", content: `The agent says: ${QUESTION}` });
    const byRun = [...outcome.results].sort((x, y) => x.run - y.run);
    expect(byRun.map((r) => [r.run, r.status, r.end, r.strict_success])).toEqual([
      [0, "completed", "finished", true],
      [1, "completed", "finished", true],
    ]);
    expect(byRun[0]!.user_sim_flags).toEqual([]);
    const trace1 = JSON.parse(readFileSync(join(out, byRun[1]!.trace_file), "utf8")) as { events: Array<{ index: number; text?: string; facts: string[] }> };
    const leak = trace1.events.find((e) => e.text === volunteered)!;
    expect(leak.facts).toEqual(["invoice_ref"]);
    expect(byRun[1]!.user_sim_flags).toEqual([{ kind: "unprompted_disclosure", event: leak.index, detail: 'disclosed private fact "invoice_ref" without being asked for it' }]);
    expect(byRun.map((r) => r.usage["user-sim"])).toEqual([
      { calls: 1, input_tokens: 300, output_tokens: 30, cost_usd: (300 * 0.4 + 30 * 1.6) / 1_000_000 },
      { calls: 1, input_tokens: 300, output_tokens: 30, cost_usd: (300 * 0.4 + 30 * 1.6) / 1_000_000 },
    ]);
    const summary = EvaluationResult.parse(JSON.parse(readFileSync(outcome.summaryPath, "utf8")));
    expect(summary.user_sim).toBe("openai:gpt-4.1-mini");
    expect(summary.overall.strict_success).toMatchObject({ rate: 1, n: 2 });
    expect(summary.user_sim_audit).toMatchObject({ flagged_episodes: 1, flags: { unprompted_disclosure: 1 }, strict_success_unflagged: { rate: 1, n: 1 } });
  });

  it("the customer's provider failing after its retries makes the episode errored with its class, counted apart and out of every rate", async () => {
    const agentReplies = agentScript(0);
    let a = 0;
    let u = 0;
    server = await ScriptedServer.start((req) => {
      if (offers(req, "reply")) {
        u++;
        return { status: 500, body: { error: { message: "customer model down" } } };
      }
      return agentReplies[a++] ?? { status: 599, body: { error: { message: "agent script exhausted" } } };
    });
    out = mkdtempSync(join(tmpdir(), "e3-eval-"));
    const outcome = await evaluate({ release: "sample", releases: RELEASES, out, config: testConfig({ base_url: server.baseUrl, max_retries: 1 }), runtime: { cache: null, env: {} }, settings: settings(1) });
    // The agent got as far as its question; the customer's model was tried max_retries + 1 times.
    expect([a, u]).toEqual([UP_TO_QUESTION, 2]);
    const [r] = outcome.results;
    expect([r!.status, r!.end, r!.error?.class]).toEqual(["errored", "errored", "server_error"]);
    expect(r!.error!.message).toMatch(/^user-sim openai:gpt-4\.1-mini: openai:gpt-4\.1-mini failed for stage evaluate, item fx-treasury-011 after 2 attempts: server_error \(HTTP 500\)/);
    const summary = EvaluationResult.parse(JSON.parse(readFileSync(outcome.summaryPath, "utf8")));
    expect(summary.episodes).toEqual({ total: 1, completed: 0, errored: 1 });
    expect(summary.errored).toEqual([{ task: TASK, condition: "E0", run: 0, class: "server_error", message: r!.error!.message }]);
    expect(summary.overall.strict_success).toMatchObject({ rate: null, n: 0 });
  });
});
