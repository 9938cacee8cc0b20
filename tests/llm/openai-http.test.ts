import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { FoundryError } from "../../pipeline/core/errors.js";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { ResponseCache } from "../../pipeline/llm/response-cache.js";
import type { RuntimeChatModel } from "../../pipeline/llm/runtime-chat-model.js";
import { askModel } from "../../pipeline/agents/llm/structured.js";
import { recordingSleep, testConfig } from "./helpers.js";
import { chat, ScriptedServer, type ServerReply } from "./scripted-server.js";

/**
 * The real ChatOpenAI client (created by the runtime through initChatModel, no factory) over HTTP
 * against a scripted OpenAI-compatible server on 127.0.0.1.
 */
const Plan = z.object({ units: z.array(z.number().int()).min(1), persona: z.string().min(3) }).meta({ title: "task_design" });
const GOOD = JSON.stringify({ units: [0, 2], persona: "A brisk treasurer" });

let servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function setup(script: ServerReply[], overrides: Record<string, unknown> = {}, cache: ResponseCache | null = null) {
  const server = await ScriptedServer.start(script);
  servers.push(server);
  const config = testConfig({ model: "openai:gpt-4.1", base_url: server.baseUrl, max_retries: 2, ...overrides });
  const { sleep, waits } = recordingSleep();
  const runtime = createLlmRuntime(config, { cache, sleep, env: {} });
  const model = runtime.chatModel({ role: "task-designer", stage: "design_task" }) as RuntimeChatModel;
  const ask = () => askModel("task-designer", { model, native: config.structured_output === "native" }, Plan, "You design tasks.", "Design task 1.", "fx-treasury-001");
  return { server, runtime, waits, ask, model };
}

async function failure(p: Promise<unknown>): Promise<FoundryError> {
  try {
    await p;
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

describe("structured output over HTTP with the real ChatOpenAI client", () => {
  it("asks natively with a forced tool carrying the JSON Schema, and reads the tool call's arguments", async () => {
    const { ask, server } = await setup([chat(null, { toolCalls: [{ id: "call_1", name: "task-designer", arguments: GOOD }] })]);
    expect(await ask()).toEqual({ units: [0, 2], persona: "A brisk treasurer" });
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]!.body;
    expect(server.requests[0]!.path).toBe("/v1/chat/completions");
    expect(body.tools).toMatchObject([{ type: "function", function: { name: "task-designer", parameters: { type: "object", required: ["units", "persona"] } } }]);
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "task-designer" } });
    // Native: the schema travels in response_format, not in the prompt.
    expect(body.messages).toEqual([{ role: "system", content: "You design tasks." }, { role: "user", content: "Design task 1." }]);
  });

  it("structured_output: prompt sends no response_format and puts the schema in the prompt", async () => {
    const { ask, server } = await setup([chat(GOOD)], { structured_output: "prompt" });
    expect(await ask()).toEqual({ units: [0, 2], persona: "A brisk treasurer" });
    const body = server.requests[0]!.body;
    expect(body.response_format).toBeUndefined();
    expect(body.tools).toBeUndefined();
    const msgs = body.messages as Array<{ role: string; content: string }>;
    expect(msgs).toHaveLength(3);
    expect(msgs[2]!.content).toMatch(/^Answer with one JSON object and nothing else\. It must satisfy this JSON Schema:/);
  });

  it("strips a <think> block before parsing (one request)", async () => {
    const { ask, server } = await setup([chat(`<think>The user wants units... maybe {"units": "x"}</think>\n${GOOD}`)]);
    expect(await ask()).toEqual({ units: [0, 2], persona: "A brisk treasurer" });
    expect(server.requests).toHaveLength(1);
  });

  it("a malformed tool call, then schema-invalid arguments, are shown to the model within the one budget; the third answer is used", async () => {
    const call = (args: string) => chat(null, { toolCalls: [{ id: "call_1", name: "task-designer", arguments: args }] });
    const { ask, server, runtime } = await setup([call('{"units": [0, 2], "persona": "A brisk'), call('{"units": [], "persona": "A brisk treasurer"}'), call(GOOD)]);
    expect(await ask()).toEqual({ units: [0, 2], persona: "A brisk treasurer" });
    expect(server.requests).toHaveLength(3);
    const second = server.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(second[2]!.content).toBe('{"units": [0, 2], "persona": "A brisk');
    expect(second[3]!.content).toMatch(/^Your task-designer call's arguments are not valid JSON \([\s\S]+\)\. Call it again with corrected arguments\.$/);
    const third = server.requests[2]!.body.messages as Array<{ role: string; content: string }>;
    expect(third).toHaveLength(6);
    expect(third[5]!.content).toBe("Your JSON does not match the schema:\n✖ Too small: expected array to have >=1 items\n  → at units\nReply again with only the corrected JSON object.");
    expect(runtime.stats().usage.total).toMatchObject({ requests: 1, modelCalls: 3, retries: 2, failures: 0, tokensIn: 36, tokensOut: 9 });
  });

  it("a schema-invalid answer every time fails as invalid_answer after exactly max_retries + 1 requests, naming task and stage", async () => {
    const bad = chat('{"units": []}');
    const { ask, server } = await setup([bad, bad, bad, chat(GOOD)]);
    const err = await failure(ask());
    expect(err.code).toBe("LLM_INVALID_ANSWER");
    expect(err.message).toMatch(/^openai:gpt-4\.1 failed for stage design_task, item fx-treasury-001 after 3 attempts: invalid_answer: task-designer: the answer does not match the schema:/);
    expect(server.requests).toHaveLength(3);
  });

  it("a 429 with Retry-After waits what the server asked, then succeeds (2 requests)", async () => {
    const { ask, server, waits } = await setup([{ status: 429, body: { error: { message: "slow down", code: "rate_limit_exceeded" } }, headers: { "retry-after": "3" } }, chat(GOOD)]);
    expect(await ask()).toEqual({ units: [0, 2], persona: "A brisk treasurer" });
    expect(server.requests).toHaveLength(2);
    expect(waits).toEqual([3000]);
  });

  it("a persistent 500 fails as server_error after exactly max_retries + 1 requests", async () => {
    const busy: ServerReply = { status: 500, body: { error: { message: "boom" } } };
    const { ask, server } = await setup([busy, busy, busy, chat(GOOD)]);
    const err = await failure(ask());
    expect(err.code).toBe("LLM_SERVER_ERROR");
    expect(err.message).toBe("openai:gpt-4.1 failed for stage design_task, item fx-treasury-001 after 3 attempts: server_error (HTTP 500): 500 boom");
    expect(err.value).toEqual({ model: "openai:gpt-4.1", stage: "design_task", item: "fx-treasury-001", attempts: 3, status: 500 });
    expect(server.requests).toHaveLength(3);
  });

  it("a server that hangs past timeout_ms costs exactly max_retries + 1 requests (no nested retries)", async () => {
    const { ask, server } = await setup(["hang", "hang", "hang", "hang", "hang", "hang", "hang", "hang", "hang"], { timeout_ms: 150 });
    const err = await failure(ask());
    expect(err.code).toBe("LLM_TIMEOUT");
    expect(err.message).toBe("openai:gpt-4.1 failed for stage design_task, item fx-treasury-001 after 3 attempts: timeout: no answer within 150 ms");
    // Give a stray extra attempt time to arrive before counting.
    await new Promise((r) => setTimeout(r, 300));
    expect(server.requests).toHaveLength(3);
  });

  it("the explicit refusal marker stops at once; prose that sounds like a refusal is retried", async () => {
    const refused = await setup([chat("REFUSE: I can't help with that."), chat(GOOD)]);
    const err = await failure(refused.ask());
    expect(err.code).toBe("LLM_INVALID_ANSWER");
    expect(err.message).toMatch(/after 1 attempt: invalid_answer: task-designer: the model refused: I can't help with that\.$/);
    expect(refused.server.requests).toHaveLength(1);
    const prose = await setup([chat("I can't do JSON today."), chat(GOOD)]);
    expect(await prose.ask()).toEqual({ units: [0, 2], persona: "A brisk treasurer" });
    expect(prose.server.requests).toHaveLength(2);
  });

  it("changing the base URL or the temperature misses the response cache; the same settings hit it", async () => {
    const cache = new ResponseCache(":memory:");
    const answer = (persona: string) => chat(null, { toolCalls: [{ id: "call_1", name: "task-designer", arguments: JSON.stringify({ units: [1], persona }) }] });
    const first = await setup([answer("First server"), answer("First server, hotter")], {}, cache);
    const second = await setup([answer("Second server")], {}, cache);
    const on = (baseUrl: string, temperature: number) => {
      const runtime = createLlmRuntime(testConfig({ model: "openai:gpt-4.1", base_url: baseUrl, max_retries: 0, temperature }), { cache, env: {} });
      const model = runtime.chatModel({ role: "task-designer", stage: "design_task" }) as RuntimeChatModel;
      return askModel("task-designer", { model, native: true }, Plan, "You design tasks.", "Design task 1.", "fx-treasury-001");
    };
    expect(await on(first.server.baseUrl, 0)).toEqual({ units: [1], persona: "First server" });
    expect(await on(second.server.baseUrl, 0)).toEqual({ units: [1], persona: "Second server" });
    expect(await on(first.server.baseUrl, 0)).toEqual({ units: [1], persona: "First server" });
    expect(await on(first.server.baseUrl, 0.7)).toEqual({ units: [1], persona: "First server, hotter" });
    expect(first.server.requests.map((r) => r.body.temperature)).toEqual([0, 0.7]);
    expect(second.server.requests).toHaveLength(1);
  });
});
