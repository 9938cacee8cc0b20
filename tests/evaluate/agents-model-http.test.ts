import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { evaluate } from "../../pipeline/evaluate/evaluate.js";
import { EvaluationResult } from "../../pipeline/schemas/evaluation-result.js";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";
import { SAMPLE, settingsWith } from "./runner-fixture.js";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";

const release = loadEvalRelease(SAMPLE);
const task = (id: string) => release.tasks.find((t) => t.task.id === id)!;
// The task a model agent solves (approvals and customer facts on the way), and one whose model calls fail.
const solved = task("fx-treasury-022");
const failing = task("fx-treasury-019");

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const call = (id: string, name: string, args: Record<string, unknown> | string): ServerReply =>
  chat(null, { toolCalls: [{ id, name, arguments: typeof args === "string" ? args : JSON.stringify(args) }], usage: [500, 40] });
const userText = (r: SeenRequest) => ((r.body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === "user")?.content as string) ?? "";
const lastMessage = (r: SeenRequest) => (r.body.messages as Array<{ role: string; content: unknown }>).at(-1)!;

/**
 * The golden trace's agent calls as a model makes them: every tool, document and operation call with
 * its arguments, and every agent line (a question, an approval request by proposal id) through
 * send_message.
 */
const GOLDEN_CALLS: ServerReply[] = solved.golden.events
  .filter((e) => e.actor === "agent")
  .map((e, i) => (e.kind === "agent_message" ? call(`g${i}`, "send_message", { text: e.text ?? "" }) : call(`g${i}`, e.name, e.args)));
const firstCall = solved.golden.events.find((e) => e.actor === "agent" && e.kind !== "agent_message")!;

// fx-treasury-022 as a model agent solves it, with a text-only turn and malformed arguments (the
// golden's first call, its JSON cut short) on the way.
const SCRIPT: ServerReply[] = [
  chat("Let me think about what to do first.", { usage: [500, 40] }),
  call("m1", firstCall.name, JSON.stringify(firstCall.args).slice(0, -1)),
  ...GOLDEN_CALLS,
  call("f1", "finish", { summary: "Every step the customer asked for is done." }),
];

describe("the provider:model agent over HTTP (real ChatOpenAI client, scripted server on 127.0.0.1), deterministic customer", () => {
  it("a full episode: text-only turn and malformed arguments answered with what went wrong, strict success, tokens and cost; a provider failure on another task is errored and counted apart", async () => {
    // Requests are told apart by the customer id in the opening: the two tasks have different customers.
    expect(failing.task.scenario.opening_request).not.toContain(solved.task.customer_id);
    let n = 0;
    server = await ScriptedServer.start((req) => {
      if (userText(req).includes(solved.task.customer_id)) return SCRIPT[n++] ?? { status: 599, body: { error: { message: "script exhausted" } } };
      return { status: 500, body: { error: { message: "model down" } } };
    });
    const out = mkdtempSync(join(tmpdir(), "eval-model-"));
    const o = await evaluate({
      release: SAMPLE,
      out,
      settings: settingsWith({ agent: "openai:gpt-4.1", tasks: [solved.task.id, failing.task.id] }),
      config: testConfig({ base_url: server.baseUrl, max_retries: 0 }),
      runtime: { cache: null, env: {} },
    });
    expect(n).toBe(SCRIPT.length);
    const agentRequests = server.requests.filter((r) => userText(r).includes(solved.task.customer_id));
    const first = agentRequests[0]!;
    expect(first.body.model).toBe("gpt-4.1");
    const system = (first.body.messages as Array<{ role: string; content: string }>)[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain("Today's business date is 2026-03-02.");
    const tools = (first.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(tools).toEqual(expect.arrayContaining(["list_reference_documents", "search_documents", "read_document", "query_database", "wait", "send_message", "finish", "defer_payment", "cancel_payment"]));
    expect(tools).not.toContain("approve_payment_release");
    // Nothing the agent may not see is in what the model is sent: check ids, hidden columns, the reference plan.
    const sent = JSON.stringify(first.body);
    for (const secret of [...solved.task.checks.goal.map((c) => c.id), "reference_plan", solved.task.scenario.persona]) expect(sent).not.toContain(secret);
    const query = (first.body.tools as Array<{ function: { name: string; description: string } }>).find((t) => t.function.name === "query_database")!;
    expect(query.function.description).toContain("- payments(");
    expect(query.function.description).not.toContain("invoice_ref");
    // The text-only turn and the malformed call were answered, not the end of the episode.
    expect(lastMessage(agentRequests[1]!)).toMatchObject({ role: "user", content: expect.stringContaining("You replied without calling a tool") });
    expect(lastMessage(agentRequests[2]!)).toMatchObject({ role: "tool", content: expect.stringContaining("are not valid JSON") });
    // The deterministic customer answered the question in the trace.
    const ok = o.results.find((r) => r.task === solved.task.id)!;
    const turns = SCRIPT.length;
    expect([ok.status, ok.end, ok.strict_success, ok.turns]).toEqual(["completed", "finished", true, turns]);
    expect(ok.usage.agent).toEqual({ calls: turns, input_tokens: 500 * turns, output_tokens: 40 * turns, cost_usd: (500 * turns * 2 + 40 * turns * 8) / 1_000_000 });
    const trace = JSON.parse(readFileSync(join(out, ok.trace_file), "utf8")) as { events: Array<{ kind: string; text?: string; facts: string[] }> };
    expect(trace.events.find((e) => e.kind === "customer_message" && e.facts.includes("reason"))).toBeDefined();

    const bad = o.results.find((r) => r.task === failing.task.id)!;
    expect([bad.status, bad.end, bad.error?.class]).toEqual(["errored", "errored", "server_error"]);
    expect(bad.error?.message).toContain("HTTP 500");
    const summary = EvaluationResult.parse(JSON.parse(readFileSync(o.summaryPath, "utf8")));
    expect(summary.episodes).toEqual({ total: 2, completed: 1, errored: 1 });
    expect(summary.errored).toEqual([{ task: failing.task.id, condition: "E0", run: 0, class: "server_error", message: bad.error!.message }]);
    expect(summary.overall.strict_success).toMatchObject({ rate: 1, n: 1 });
  }, 60_000);
});
