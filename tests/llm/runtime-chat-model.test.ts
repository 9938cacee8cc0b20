import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { structuredCall } from "../../pipeline/llm/structured-output.js";
import { ResponseCache } from "../../pipeline/llm/response-cache.js";
import type { RuntimeChatModel } from "../../pipeline/llm/runtime-chat-model.js";
import { testConfig } from "./helpers.js";

const lookupCalls: string[] = [];
const lookup = tool(
  async ({ id }: { id: string }) => {
    lookupCalls.push(id);
    return JSON.stringify({ id, balance: 120 });
  },
  { name: "lookup_account", description: "Read one account", schema: z.object({ id: z.string() }) },
);

describe("RuntimeChatModel", () => {
  it("runs a createAgent tool loop through the runtime, charged to its stage and item, and replays it from the cache", async () => {
    lookupCalls.length = 0;
    const inner = fakeModel()
      .respondWithTools([{ name: "lookup_account", args: { id: "AC-7" }, id: "call_a" }])
      .respond(new AIMessage({ content: "Balance is 120.", usage_metadata: { input_tokens: 30, output_tokens: 5, total_tokens: 35 } }));
    const cache = new ResponseCache(":memory:");
    const runtime = createLlmRuntime(testConfig({ model: "scripted:solver" }), { cache, modelFactory: () => inner });
    const model = runtime.chatModel({ role: "solver", stage: "golden-trace", item: "task-3" }) as RuntimeChatModel;
    const agent = createAgent({ model, tools: [lookup] });
    const result = await agent.invoke({ messages: [new HumanMessage("What is the balance of AC-7?")] });
    expect(result.messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
    expect(result.messages.at(-1)?.text).toBe("Balance is 120.");
    expect(lookupCalls).toEqual(["AC-7"]);
    // The inner model saw the tool bound through the runtime.
    expect(inner.callCount).toBe(2);
    expect(runtime.stats().usage.byItem["task-3"]).toMatchObject({ requests: 2, modelCalls: 2, cacheHits: 0, tokensIn: 30, tokensOut: 5 });

    const again = await createAgent({ model, tools: [lookup] }).invoke({ messages: [new HumanMessage("What is the balance of AC-7?")] });
    expect(again.messages.at(-1)?.text).toBe("Balance is 120.");
    expect(inner.callCount).toBe(2);
    expect(lookupCalls).toEqual(["AC-7", "AC-7"]);
    expect(runtime.stats().usage.byStage["golden-trace"]).toMatchObject({ requests: 4, cacheHits: 2, modelCalls: 2 });
  });

  it("supports createAgent with a tool-strategy response format", async () => {
    const Verdict = z.object({ solvable: z.boolean(), reason: z.string() }).meta({ title: "Verdict" });
    const inner = fakeModel().respondWithTools([{ name: "Verdict", args: { solvable: true, reason: "golden trace passes" }, id: "call_v" }]);
    const runtime = createLlmRuntime(testConfig({ model: "scripted:verifier" }), { cache: null, modelFactory: () => inner });
    const model = runtime.chatModel({ role: "verifier", stage: "verify", item: "task-1" }) as RuntimeChatModel;
    const agent = createAgent({ model, tools: [], responseFormat: Verdict });
    const out = await agent.invoke({ messages: [new HumanMessage("Is task-1 solvable?")] });
    expect(out.structuredResponse).toEqual({ solvable: true, reason: "golden trace passes" });
    expect(runtime.stats().usage.byItem["task-1"]?.modelCalls).toBe(1);
  });

  it("binds tools and tool options into the request and its cache key", async () => {
    const inner = fakeModel().respond(new AIMessage("plain")).respondWithTools([{ name: "lookup_account", args: { id: "B" } }]);
    const cache = new ResponseCache(":memory:");
    const runtime = createLlmRuntime(testConfig({ model: "scripted:x" }), { cache, modelFactory: () => inner });
    const model = runtime.chatModel({ role: "repairer", stage: "repair", item: "task-9" }) as RuntimeChatModel;
    expect((await model.invoke([new HumanMessage("q")])).text).toBe("plain");
    const withTools = model.bindTools([lookup], { tool_choice: "any" });
    expect(withTools.boundOptions).toEqual({ tool_choice: "any" });
    const answer = await withTools.invoke([new HumanMessage("q")]);
    expect(answer.tool_calls?.[0]).toMatchObject({ name: "lookup_account", args: { id: "B" } });
    expect(cache.stats()).toEqual({ hits: 0, misses: 2, writes: 2 });
  });

  it("works under withStructuredOutput, parsing the tool call it forces", async () => {
    const inner = fakeModel().respondWithTools([{ name: "extract", args: { answer: "42" } }]);
    const runtime = createLlmRuntime(testConfig({ model: "scripted:x" }), { cache: null, modelFactory: () => inner });
    const model = runtime.chatModel({ role: "rubric-writer", stage: "checks" }) as RuntimeChatModel;
    const structured = model.withStructuredOutput(z.object({ answer: z.string() }));
    expect(await structured.invoke([new HumanMessage("q")])).toEqual({ answer: "42" });
  });

  it("charges a copy made with forItem() to the new item", async () => {
    const inner = fakeModel().respond(new AIMessage("a")).respond(new AIMessage("b"));
    const runtime = createLlmRuntime(testConfig({ model: "scripted:x" }), { cache: null, modelFactory: () => inner });
    const model = runtime.chatModel({ role: "user-sim", stage: "simulate", item: "ep-1" }) as RuntimeChatModel;
    await model.invoke([new HumanMessage("x")]);
    await model.forItem({ item: "ep-2" }).invoke([new HumanMessage("x")]);
    expect(Object.keys(runtime.stats().usage.byItem)).toEqual(["ep-1", "ep-2"]);
  });

  it("sits under structuredCall: the bad answer is retried inside the runtime's one loop, and the corrected answer replays from the cache", async () => {
    const Rule = z.object({ id: z.string(), limit: z.number() });
    const inner = fakeModel().respond(new AIMessage('{"id": "R-1"}')).respond(new AIMessage('{"id": "R-1", "limit": 5000}'));
    const cache = new ResponseCache(":memory:");
    const runtime = createLlmRuntime(testConfig({ model: "scripted:extractor" }), { cache, modelFactory: () => inner });
    const model = runtime.chatModel({ role: "sop-extractor", stage: "extract", item: "doc-1", schemaForKey: Rule }) as RuntimeChatModel;
    const ask = () => structuredCall({ model, schema: Rule, messages: [new HumanMessage("Extract the rule.")], name: "rule" });
    expect(await ask()).toEqual({ ok: true, value: { id: "R-1", limit: 5000 } });
    expect(await ask()).toEqual({ ok: true, value: { id: "R-1", limit: 5000 } });
    expect(inner.callCount).toBe(2);
    // The second model call saw the bad answer and its schema error.
    expect(inner.calls[1]?.messages.map((m) => m.getType())).toEqual(["human", "human", "ai", "human"]);
    expect(runtime.stats().usage.byItem["doc-1"]).toMatchObject({ requests: 2, cacheHits: 1, modelCalls: 2, retries: 1 });
    await expect(structuredCall({ model, schema: Rule, messages: [new HumanMessage("x")], maxAttempts: 3 })).rejects.toThrow(RangeError);
  });
});
