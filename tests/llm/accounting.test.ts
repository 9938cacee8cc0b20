import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { Accounting } from "../../pipeline/llm/accounting.js";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { parseModelSpec, type ModelRef } from "../../pipeline/llm/model-registry.js";
import { priceOf } from "../../pipeline/llm/model-prices.js";
import { DeafModel, recordingSleep, testConfig } from "./helpers.js";

const usage = (i: number, o: number) => ({ input_tokens: i, output_tokens: o, total_tokens: i + o });
const ref = (spec: string) => parseModelSpec(spec) as ModelRef;

describe("model prices", () => {
  it("knows listed models and their dated snapshots; unknown models have no price; local ones are free", () => {
    expect(priceOf(ref("openai:gpt-4.1"))).toEqual({ input: 2, output: 8 });
    expect(priceOf(ref("openai:gpt-4.1-2025-04-14"))).toEqual({ input: 2, output: 8 });
    expect(priceOf(ref("openai:gpt-4.1-mini"))).toEqual({ input: 0.4, output: 1.6 });
    expect(priceOf(ref("anthropic:claude-sonnet-4-20250514"))).toEqual({ input: 3, output: 15 });
    expect(priceOf(ref("openai:gpt-4.1-turbo-preview"))).toBeNull();
    expect(priceOf(ref("scripted:x"))).toBeNull();
    expect(priceOf(ref("ollama:qwen3:8b"))).toEqual({ input: 0, output: 0 });
  });
});

describe("Accounting", () => {
  it("charges tokens and cost to the stage, the item and the model", () => {
    const acc = new Accounting();
    const gpt = { stage: "design", item: "task-1", ref: ref("openai:gpt-4.1") };
    acc.count(gpt, "requests");
    acc.count(gpt, "modelCalls");
    acc.usage(gpt, 1_000_000, 100_000);
    const snap = acc.snapshot();
    expect(snap.total).toEqual({ requests: 1, cacheHits: 0, modelCalls: 1, retries: 0, failures: 0, tokensIn: 1_000_000, tokensOut: 100_000, costUsd: 2.8, unpricedCalls: 0 });
    expect(Object.keys(snap.byStage)).toEqual(["design"]);
    expect(Object.keys(snap.byItem)).toEqual(["task-1"]);
    expect(snap.byModel["openai:gpt-4.1"]?.costUsd).toBe(2.8);
  });

  it("reports the cost of a bucket as unknown (null) when any call used an unpriced model", () => {
    const acc = new Accounting();
    acc.usage({ stage: "design", ref: ref("openai:gpt-4.1") }, 1000, 0);
    acc.usage({ stage: "design", ref: ref("scripted:x") }, 1000, 0);
    acc.usage({ stage: "repair", ref: ref("openai:gpt-4.1") }, 1000, 0);
    const snap = acc.snapshot();
    expect(snap.byStage.design).toMatchObject({ tokensIn: 2000, costUsd: null, unpricedCalls: 1 });
    expect(snap.byStage.repair).toMatchObject({ tokensIn: 1000, costUsd: 0.002, unpricedCalls: 0 });
    expect(snap.total.costUsd).toBeNull();
    expect(snap.byItem).toEqual({});
  });

  it("uses an injected price table", () => {
    const acc = new Accounting({ "scripted:x": { input: 1, output: 2 } });
    acc.usage({ stage: "s", ref: ref("scripted:x") }, 500_000, 500_000);
    expect(acc.snapshot().total.costUsd).toBe(1.5);
  });
});

describe("accounting through the runtime", () => {
  it("records calls, hits, retries and failures per stage and item", async () => {
    const model = fakeModel()
      .respond(new AIMessage({ content: "a", usage_metadata: usage(100, 10) }))
      .respond(Object.assign(new Error("busy"), { status: 503 }))
      .respond(new AIMessage({ content: "b", usage_metadata: usage(200, 20) }))
      .respond(Object.assign(new Error("bad request"), { status: 400 }));
    const { sleep, waits } = recordingSleep();
    const runtime = createLlmRuntime(testConfig({ model: "scripted:m", max_retries: 2 }), {
      cache: null,
      sleep,
      modelFactory: () => model,
      prices: { "scripted:m": { input: 10, output: 100 } },
    });
    const call = (stage: string, item: string, text: string) => runtime.invoke({ role: "task-designer", stage, item, messages: [new HumanMessage(text)] });
    await call("design", "task-1", "one");
    await call("design", "task-2", "two");
    await expect(call("repair", "task-1", "three")).rejects.toMatchObject({ code: "LLM_REQUEST_REJECTED" });
    expect(waits).toHaveLength(1);
    const snap = runtime.stats().usage;
    expect(snap.byStage).toEqual({
      design: { requests: 2, cacheHits: 0, modelCalls: 3, retries: 1, failures: 0, tokensIn: 300, tokensOut: 30, costUsd: 0.006, unpricedCalls: 0 },
      repair: { requests: 1, cacheHits: 0, modelCalls: 1, retries: 0, failures: 1, tokensIn: 0, tokensOut: 0, costUsd: 0, unpricedCalls: 0 },
    });
    expect(snap.byItem["task-1"]).toEqual({ requests: 2, cacheHits: 0, modelCalls: 2, retries: 0, failures: 1, tokensIn: 100, tokensOut: 10, costUsd: 0.002, unpricedCalls: 0 });
    expect(snap.byItem["task-2"]).toMatchObject({ requests: 1, modelCalls: 2, retries: 1, tokensIn: 200 });
    expect(snap.failuresByCode).toEqual({ LLM_REQUEST_REJECTED: 1 });
  });

  it("charges a model that never answers one retry, then fails with LLM_TIMEOUT instead of hanging", async () => {
    const deaf = new DeafModel();
    const { sleep } = recordingSleep();
    const runtime = createLlmRuntime(testConfig({ model: "scripted:deaf", max_retries: 1, timeout_ms: 100 }), { cache: null, sleep, modelFactory: () => deaf });
    await expect(runtime.invoke({ role: "env-sim", stage: "simulate", item: "ep-1", messages: [new HumanMessage("x")] })).rejects.toMatchObject({
      code: "LLM_TIMEOUT",
      message: "scripted:deaf failed for stage simulate, item ep-1 after 2 attempts: timeout: no answer within 100 ms",
    });
    expect(deaf.calls).toBe(2);
    expect(runtime.stats().usage.byItem["ep-1"]).toMatchObject({ modelCalls: 2, retries: 1, failures: 1 });
  });

  it("stops retrying at once when the caller aborts", async () => {
    const deaf = new DeafModel();
    const runtime = createLlmRuntime(testConfig({ model: "scripted:deaf", max_retries: 3, timeout_ms: 10_000 }), { cache: null, modelFactory: () => deaf });
    const controller = new AbortController();
    const pending = runtime.invoke({ role: "env-sim", stage: "simulate", messages: [new HumanMessage("x")], signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: "LLM_ABORTED" });
    expect(deaf.calls).toBe(1);
  });
});
