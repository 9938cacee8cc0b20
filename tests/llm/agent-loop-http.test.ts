import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { runAgentLoop, type LoopToolCall } from "../../pipeline/llm/agent-loop.js";
import type { RuntimeChatModel } from "../../pipeline/llm/runtime-chat-model.js";
import { recordingSleep, testConfig } from "./helpers.js";
import { chat, ScriptedServer } from "./scripted-server.js";

const TOOLS = [
  { name: "get_payment", description: "Look up a payment by id.", parameters: { type: "object", properties: { payment_id: { type: "string" } }, required: ["payment_id"], additionalProperties: false } },
  { name: "finish", description: "End the conversation.", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"], additionalProperties: false } },
];

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type Sent = Array<{ role: string; content: string | null; tool_call_id?: string; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> }>;

describe("the agent loop over HTTP with the real ChatOpenAI client", () => {
  it("two tool rounds, a malformed tool call and a text-only turn: ids round-tripped, the model told, tokens per turn", async () => {
    server = await ScriptedServer.start([
      chat(null, { toolCalls: [{ id: "call_A", name: "get_payment", arguments: '{"payment_id": "PAY-1"}' }], usage: [100, 10] }),
      chat(null, { toolCalls: [{ id: "call_B", name: "get_payment", arguments: '{"payment_id": ' }], usage: [120, 11] }),
      chat("I think the payment is fine.", { usage: [140, 12] }),
      chat(null, { toolCalls: [{ id: "call_C", name: "get_payment", arguments: '{"payment_id": "PAY-2"}' }], usage: [160, 13] }),
      chat(null, { toolCalls: [{ id: "call_D", name: "finish", arguments: '{"summary": "done"}' }], usage: [180, 14] }),
    ]);
    const { sleep } = recordingSleep();
    const runtime = createLlmRuntime(testConfig({ model: "openai:gpt-4.1", base_url: server.baseUrl, max_retries: 1 }), { cache: null, sleep, env: {} });
    const model = runtime.chatModel({ role: "solver", stage: "solve", item: "fx-treasury-001" }) as RuntimeChatModel;
    const executed: LoopToolCall[] = [];
    const result = await runAgentLoop({
      model,
      tools: TOOLS,
      messages: [new SystemMessage("You are an agent."), new HumanMessage("Check PAY-1 and PAY-2.")],
      maxTurns: 10,
      execute: (call) => {
        executed.push(call);
        return call.name === "finish" ? { content: { ok: true }, done: true } : { content: { payment_id: call.args.payment_id, amount: 500 } };
      },
    });
    expect(result.outcome).toBe("done");
    expect(server.requests).toHaveLength(5);
    // Tool binding: every request offers the tools.
    for (const r of server.requests) expect((r.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(["get_payment", "finish"]);
    const sent = server.requests.map((r) => r.body.messages as Sent);
    // Round 1's result answers call_A exactly.
    expect(sent[1]!.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_A", function: { name: "get_payment" } }] });
    expect(sent[1]!.at(-1)).toEqual({ role: "tool", name: "get_payment", tool_call_id: "call_A", content: '{"payment_id":"PAY-1","amount":500}' });
    // The malformed call is answered under its own id with the parse error.
    expect(sent[2]!.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_B", function: { name: "get_payment", arguments: "{}" } }] });
    expect(sent[2]!.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_B" });
    expect(sent[2]!.at(-1)!.content).toMatch(/^Error: the arguments of get_payment are not valid JSON \(.+\): \{"payment_id": \. Call the tool again with valid JSON arguments\.$/s);
    // The text-only turn gets a nudge.
    expect(sent[3]!.at(-2)).toMatchObject({ role: "assistant", content: "I think the payment is fine." });
    expect(sent[3]!.at(-1)).toEqual({ role: "user", content: "You replied without calling a tool. Work only through the tools: call the next tool you need, or finish when the request is complete." });
    expect(sent[4]!.at(-1)).toEqual({ role: "tool", name: "get_payment", tool_call_id: "call_C", content: '{"payment_id":"PAY-2","amount":500}' });
    expect(executed.map((c) => [c.id, c.name, c.args])).toEqual([
      ["call_A", "get_payment", { payment_id: "PAY-1" }],
      ["call_C", "get_payment", { payment_id: "PAY-2" }],
      ["call_D", "finish", { summary: "done" }],
    ]);
    expect(result.turns.map((t) => [t.tokensIn, t.tokensOut, t.toolCalls, t.invalidToolCalls, t.textOnly])).toEqual([
      [100, 10, 1, 0, false],
      [120, 11, 0, 1, false],
      [140, 12, 0, 0, true],
      [160, 13, 1, 0, false],
      [180, 14, 1, 0, false],
    ]);
    expect([result.tokensIn, result.tokensOut]).toEqual([700, 60]);
  });

  it("gives up after the bounded nudges, saying why", async () => {
    server = await ScriptedServer.start([chat("Hello."), chat("Still here."), chat("Anything else?")]);
    const runtime = createLlmRuntime(testConfig({ model: "openai:gpt-4.1", base_url: server.baseUrl, max_retries: 0 }), { cache: null, env: {} });
    const model = runtime.chatModel({ role: "solver", stage: "solve" }) as RuntimeChatModel;
    const result = await runAgentLoop({ model, tools: TOOLS, messages: [new HumanMessage("Go.")], maxTurns: 10, maxNudges: 2, execute: () => ({ content: null }) });
    expect(result).toMatchObject({ outcome: "gave_up", reason: "the model answered without calling a tool 3 time(s): Anything else?" });
    expect(server.requests).toHaveLength(3);
  });
});
