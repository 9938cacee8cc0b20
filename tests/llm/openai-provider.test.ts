import { HumanMessage } from "@langchain/core/messages";
import { initChatModel } from "langchain";
import { describe, expect, it } from "vitest";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { FoundryError } from "../../pipeline/core/errors.js";
import type { FoundryConfig } from "../../pipeline/core/config.js";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { providerFields } from "../../pipeline/llm/model-registry.js";
import { completion, recordingSleep, scriptedFetch, testConfig, type ScriptedReply } from "./helpers.js";

/**
 * The real ChatOpenAI code path (request building, SDK error classes, LangChain's error wrapping)
 * with the network replaced by a scripted fetch.
 */
function openaiRuntime(replies: ScriptedReply[], overrides: Record<string, unknown> = {}) {
  const config: FoundryConfig = testConfig({ model: "openai:gpt-4.1", base_url: "http://llm.test/v1", max_retries: 2, ...overrides });
  const scripted = scriptedFetch(replies);
  const { sleep, waits } = recordingSleep();
  const runtime = createLlmRuntime(config, {
    cache: null,
    sleep,
    env: {},
    modelFactory: async (ref) => {
      const fields = providerFields(config, ref, {});
      const configuration = { ...(fields.configuration as Record<string, unknown>), fetch: scripted.fetch };
      return (await initChatModel(ref.model, { ...fields, configuration })) as unknown as BaseChatModel;
    },
  });
  const call = () => runtime.invoke({ role: "task-designer", stage: "design", item: "task-1", messages: [new HumanMessage("Plan the task")] });
  return { runtime, requests: scripted.requests, waits, call };
}

async function failure(p: Promise<unknown>): Promise<FoundryError> {
  try {
    await p;
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}

describe("runtime over ChatOpenAI with a scripted network", () => {
  it("sends the request to the configured OpenAI-compatible base URL with the configured temperature", async () => {
    const { call, requests } = openaiRuntime([completion("ok")]);
    const answer = await call();
    expect(answer.content).toBe("ok");
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe("http://llm.test/v1/chat/completions");
    expect(requests[0]?.body.model).toBe("gpt-4.1");
    expect(requests[0]?.body.temperature).toBe(0);
    expect(requests[0]?.body.messages).toEqual([{ role: "user", content: "Plan the task" }]);
  });

  it("retries a 429 after the Retry-After the provider asked for, then succeeds", async () => {
    const { call, requests, waits, runtime } = openaiRuntime([
      { status: 429, body: { error: { message: "slow down", type: "requests", code: "rate_limit_exceeded" } }, headers: { "retry-after": "2" } },
      completion("after the wait"),
    ]);
    expect((await call()).content).toBe("after the wait");
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([2000]);
    expect(runtime.stats().usage.total).toMatchObject({ requests: 1, modelCalls: 2, retries: 1, failures: 0, tokensIn: 12, tokensOut: 3 });
  });

  it("caps a huge Retry-After so one header cannot stall the build", async () => {
    const { call, waits } = openaiRuntime([
      { status: 429, body: { error: { message: "later", code: "rate_limit_exceeded" } }, headers: { "retry-after": "86400" } },
      completion("ok"),
    ]);
    await call();
    expect(waits).toEqual([60_000]);
  });

  it("does not retry a 429 that reports an exhausted quota", async () => {
    const { call, requests } = openaiRuntime([{ status: 429, body: { error: { message: "You exceeded your current quota", code: "insufficient_quota" } } }, completion("never")]);
    const err = await failure(call());
    expect(err.code).toBe("LLM_RATE_LIMIT");
    expect(requests).toHaveLength(1);
  });

  it("retries a 500 with seeded backoff, then succeeds", async () => {
    const { call, requests, waits } = openaiRuntime([{ status: 500, body: { error: { message: "boom" } } }, completion("recovered")]);
    expect((await call()).content).toBe("recovered");
    expect(requests).toHaveLength(2);
    expect(waits).toHaveLength(1);
    // Equal jitter around the first 500 ms step: between 250 and 500 ms.
    expect(waits[0]).toBeGreaterThanOrEqual(250);
    expect(waits[0]).toBeLessThanOrEqual(500);
  });

  it("never retries a 400 and reports it as a rejected request", async () => {
    const { call, requests, waits, runtime } = openaiRuntime([{ status: 400, body: { error: { message: "bad field 'x'", type: "invalid_request_error" } } }, completion("never")]);
    const err = await failure(call());
    expect(err.code).toBe("LLM_REQUEST_REJECTED");
    expect(err.message).toBe("openai:gpt-4.1 failed for stage design, item task-1 after 1 attempt: client_error (HTTP 400): 400 bad field 'x'");
    expect(err.value).toEqual({ model: "openai:gpt-4.1", stage: "design", item: "task-1", attempts: 1, status: 400 });
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(runtime.stats().usage.failuresByCode).toEqual({ LLM_REQUEST_REJECTED: 1 });
  });

  it("never retries a 401", async () => {
    const { call, requests } = openaiRuntime([{ status: 401, body: { error: { message: "bad key" } } }, completion("never")]);
    expect((await failure(call())).code).toBe("LLM_AUTH");
    expect(requests).toHaveLength(1);
  });

  it("retries a refused connection", async () => {
    const { call, requests } = openaiRuntime(["network-error", completion("connected")]);
    expect((await call()).content).toBe("connected");
    expect(requests).toHaveLength(2);
  });

  it("gives up on a server that never answers: one retry, then a clear timeout error", async () => {
    const { call, requests, runtime } = openaiRuntime(["hang", "hang", completion("too late")], { timeout_ms: 100, max_retries: 1 });
    const err = await failure(call());
    expect(err.code).toBe("LLM_TIMEOUT");
    expect(err.message).toBe("openai:gpt-4.1 failed for stage design, item task-1 after 2 attempts: timeout: no answer within 100 ms");
    expect(requests).toHaveLength(2);
    expect(runtime.stats().usage.total).toMatchObject({ requests: 1, modelCalls: 2, retries: 1, failures: 1 });
  });

  it("exhausts max_retries on repeated 503s and reports the last status", async () => {
    const busy: ScriptedReply = { status: 503, body: { error: { message: "overloaded" } } };
    const { call, requests, waits } = openaiRuntime([busy, busy, busy, completion("never")]);
    const err = await failure(call());
    expect(err.code).toBe("LLM_SERVER_ERROR");
    expect(err.value).toMatchObject({ attempts: 3, status: 503 });
    expect(requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });
});
