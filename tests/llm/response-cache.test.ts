import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cacheEntry, cacheKey, messagesKey } from "../../pipeline/llm/cache-key.js";
import { createLlmRuntime, type LlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { parseModelSpec, type ModelRef } from "../../pipeline/llm/model-registry.js";
import { RESPONSE_CACHE_FILE, ResponseCache } from "../../pipeline/llm/response-cache.js";
import { testConfig } from "./helpers.js";

const ref = parseModelSpec("scripted:a") as ModelRef;
const settings = { temperature: 0, base_url: null, num_ctx: null, structured_output: "native" as const };
const base = { ref, settings, messages: [new SystemMessage("You design tasks."), new HumanMessage("Design one.")] };
const lookup = tool(async () => "x", { name: "lookup", description: "Find a record", schema: z.object({ id: z.string() }) });

describe("cache keys", () => {
  it("are equal for equal requests and differ when anything that changes the answer differs", () => {
    const k = cacheKey(base);
    expect(cacheKey({ ...base, messages: [new SystemMessage("You design tasks."), new HumanMessage("Design one.")] })).toBe(k);
    const variants = [
      cacheKey({ ...base, settings: { ...settings, temperature: 0.7 } }),
      cacheKey({ ...base, settings: { ...settings, base_url: "http://127.0.0.1:9/v1" } }),
      cacheKey({ ...base, settings: { ...settings, num_ctx: 8192 } }),
      cacheKey({ ...base, settings: { ...settings, structured_output: "prompt" } }),
      cacheKey({ ...base, structured: { name: "answer", native: true, schema: z.object({ answer: z.string() }) } }),
      cacheKey({ ...base, ref: parseModelSpec("scripted:b") as ModelRef }),
      cacheKey({ ...base, ref: parseModelSpec("other:a") as ModelRef }),
      cacheKey({ ...base, messages: [new SystemMessage("You design tasks."), new HumanMessage("Design two.")] }),
      cacheKey({ ...base, messages: [new HumanMessage("You design tasks."), new HumanMessage("Design one.")] }),
      cacheKey({ ...base, tools: [lookup] }),
      cacheKey({ ...base, tools: [tool(async () => "x", { name: "lookup", description: "Find a record", schema: z.object({ id: z.number() }) })] }),
      cacheKey({ ...base, schema: z.object({ answer: z.string() }) }),
      cacheKey({ ...base, schema: z.object({ answer: z.number() }) }),
      cacheKey({ ...base, callOptions: { tool_choice: "any" } }),
      cacheKey({ ...base, variant: "run-2" }),
    ];
    expect(new Set([k, ...variants]).size).toBe(variants.length + 1);
  });

  it("ignore LangChain tracing options", () => {
    expect(cacheKey({ ...base, callOptions: { ls_structured_output_format: { kwargs: {} } } })).toBe(cacheKey(base));
  });

  it("are the same whether a conversation's messages were keyed before (memoized) or are fresh copies; an edited message is keyed again", () => {
    const call = (id: string) => new AIMessage({ content: "", tool_calls: [{ name: "lookup", args: { id: "1" }, id, type: "tool_call" }] });
    const grown: BaseMessage[] = [new SystemMessage("You design tasks."), new HumanMessage("Design one."), call("call_a")];
    const first = cacheKey({ ...base, messages: grown });
    grown.push(new ToolMessage({ content: "one", tool_call_id: "call_a" }), call("call_b"));
    const fresh = [new SystemMessage("You design tasks."), new HumanMessage("Design one."), call("call_z"), new ToolMessage({ content: "one", tool_call_id: "call_z" }), call("call_y")];
    expect(cacheKey({ ...base, messages: grown })).toBe(cacheKey({ ...base, messages: fresh }));
    expect(cacheKey({ ...base, messages: grown.slice(0, 3) })).toBe(first);
    // The same message objects after an edit in place: not served from the memo.
    (grown[1] as HumanMessage).content = "Design two.";
    expect(cacheKey({ ...base, messages: grown })).not.toBe(cacheKey({ ...base, messages: fresh }));
    // The same objects in another order renumber their ids again.
    const reordered = [grown[0]!, grown[1]!, grown[4]!, grown[3]!, grown[2]!];
    expect(cacheEntry({ ...base, messages: reordered }).messages.map((m) => JSON.parse(m.json).tool_calls?.[0]?.id ?? JSON.parse(m.json).tool_call_id ?? null)).toEqual([null, null, "#0", "#1", "#1"]);
  });

  it("replace random tool-call ids by their order, keeping which result answers which call", () => {
    const conv = (a: string, b: string) => [
      new HumanMessage("go"),
      new AIMessage({ content: "", tool_calls: [{ name: "lookup", args: { id: "1" }, id: a, type: "tool_call" }, { name: "lookup", args: { id: "2" }, id: b, type: "tool_call" }] }),
      new ToolMessage({ content: "one", tool_call_id: a }),
      new ToolMessage({ content: "two", tool_call_id: b }),
    ];
    expect(messagesKey(conv("call_x", "call_y"))).toEqual(messagesKey(conv("call_p", "call_q")));
    expect(messagesKey(conv("call_x", "call_y"))[2]).toEqual({ role: "tool", content: "one", tool_call_id: "#0" });
    const swapped = conv("call_x", "call_y");
    swapped[2] = new ToolMessage({ content: "one", tool_call_id: "call_y" });
    swapped[3] = new ToolMessage({ content: "two", tool_call_id: "call_x" });
    expect(cacheKey({ ...base, messages: swapped })).not.toBe(cacheKey({ ...base, messages: conv("call_x", "call_y") }));
  });
});

function scriptedRuntime(opts: { cache: ResponseCache | null; temperature?: number; answers?: Array<AIMessage | Error> }) {
  const model = fakeModel();
  for (const a of opts.answers ?? []) model.respond(a);
  const runtime = createLlmRuntime(testConfig({ model: "scripted:writer", temperature: opts.temperature ?? 0, max_retries: 0 }), {
    cache: opts.cache,
    modelFactory: () => model,
  });
  return { model, runtime };
}

const ask = (runtime: LlmRuntime, text: string, extra: Record<string, unknown> = {}) =>
  runtime.invoke({ role: "rubric-writer", stage: "checks", item: "task-1", messages: [new HumanMessage(text)], ...extra });

describe("response cache storage", () => {
  it("stores each message once across the calls of a conversation, and gives back the whole request", () => {
    const cache = new ResponseCache(":memory:");
    const conversation: BaseMessage[] = [new SystemMessage("You design tasks."), new HumanMessage("Design one.")];
    const entries = [];
    for (let i = 0; i < 5; i++) {
      const entry = cacheEntry({ ...base, messages: [...conversation] });
      cache.put(entry, "scripted:a", new AIMessage(`answer ${i}`));
      entries.push(entry);
      conversation.push(new AIMessage(`answer ${i}`), new HumanMessage(`next ${i}`));
    }
    // 2 + 4 × 2 distinct messages, not 2 + 4 + 6 + 8 + 10.
    expect(cache.messageCount()).toBe(10);
    expect(cache.request(entries[4]!.key)).toMatchObject({ provider: "scripted", model: "a", messages: messagesKey(conversation.slice(0, 10)) });
    expect(cache.get(entries[2]!.key)?.content).toBe("answer 2");
  });
});

describe("response cache in the runtime", () => {
  it("answers an identical request from the cache without calling the model", async () => {
    const cache = new ResponseCache(":memory:");
    const { model, runtime } = scriptedRuntime({ cache, answers: [new AIMessage({ content: "first", usage_metadata: { input_tokens: 7, output_tokens: 2, total_tokens: 9 } })] });
    const fresh = await ask(runtime, "write a check");
    const again = await ask(runtime, "write a check");
    expect(model.callCount).toBe(1);
    expect(again.content).toBe("first");
    expect(again).toEqual(fresh);
    expect(cache.stats()).toEqual({ hits: 1, misses: 1, writes: 1 });
    expect(runtime.stats().usage.total).toMatchObject({ requests: 2, cacheHits: 1, modelCalls: 1, tokensIn: 7, tokensOut: 2 });
  });

  it("misses when messages, tools, schema, variant or the cache opt-out differ", async () => {
    const cache = new ResponseCache(":memory:");
    const answers = ["a", "b", "c", "d", "e", "f"].map((c) => new AIMessage(c));
    const { model, runtime } = scriptedRuntime({ cache, answers });
    expect((await ask(runtime, "q")).content).toBe("a");
    expect((await ask(runtime, "q2")).content).toBe("b");
    expect((await ask(runtime, "q", { tools: [lookup] })).content).toBe("c");
    expect((await ask(runtime, "q", { schemaForKey: z.object({ ok: z.boolean() }) })).content).toBe("d");
    expect((await ask(runtime, "q", { variant: "run-2" })).content).toBe("e");
    expect((await ask(runtime, "q", { cache: false })).content).toBe("f");
    expect((await ask(runtime, "q")).content).toBe("a");
    expect(model.callCount).toBe(6);
    expect(cache.stats()).toEqual({ hits: 1, misses: 5, writes: 5 });
  });

  it("misses when the temperature or the model differs, even in a shared cache file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "llm-cache-"));
    const path = join(dir, RESPONSE_CACHE_FILE);
    const cold = scriptedRuntime({ cache: new ResponseCache(path), answers: [new AIMessage("t0")] });
    expect((await ask(cold.runtime, "q")).content).toBe("t0");
    const warm = scriptedRuntime({ cache: new ResponseCache(path), answers: [] });
    expect((await ask(warm.runtime, "q")).content).toBe("t0");
    expect(warm.model.callCount).toBe(0);
    const hot = scriptedRuntime({ cache: new ResponseCache(path), temperature: 0.7, answers: [new AIMessage("t07")] });
    expect((await ask(hot.runtime, "q")).content).toBe("t07");
    const otherModel = fakeModel().respond(new AIMessage("other"));
    const other = createLlmRuntime(testConfig({ model: "scripted:other", max_retries: 0 }), { cache: new ResponseCache(path), modelFactory: () => otherModel });
    expect((await ask(other, "q")).content).toBe("other");
    expect(new ResponseCache(path).size()).toBe(3);
  });

  it("never caches an error: the next identical request calls the model again", async () => {
    const cache = new ResponseCache(":memory:");
    const { model, runtime } = scriptedRuntime({ cache, answers: [Object.assign(new Error("upstream"), { status: 500 }), new AIMessage("second try")] });
    await expect(ask(runtime, "q")).rejects.toMatchObject({ code: "LLM_SERVER_ERROR" });
    expect(cache.size()).toBe(0);
    expect((await ask(runtime, "q")).content).toBe("second try");
    expect(model.callCount).toBe(2);
    expect(cache.stats()).toEqual({ hits: 0, misses: 2, writes: 1 });
  });

  it("replays tool calls and usage exactly", async () => {
    const cache = new ResponseCache(":memory:");
    const model = fakeModel().respondWithTools([{ name: "lookup", args: { id: "A-1" }, id: "call_1" }]);
    const runtime = createLlmRuntime(testConfig({ model: "scripted:x" }), { cache, modelFactory: () => model });
    const req = { role: "solver" as const, stage: "solve", messages: [new HumanMessage("find A-1")], tools: [lookup] };
    const fresh = await runtime.invoke(req);
    const replay = await runtime.invoke(req);
    expect(replay.tool_calls).toEqual([{ name: "lookup", args: { id: "A-1" }, id: "call_1", type: "tool_call" }]);
    expect(replay).toEqual(fresh);
    expect(model.callCount).toBe(1);
  });

  it("keeps provider extras such as an OpenAI refusal", async () => {
    const cache = new ResponseCache(":memory:");
    const { runtime } = scriptedRuntime({ cache, answers: [new AIMessage({ content: "", additional_kwargs: { refusal: "I can't help with that." } })] });
    await ask(runtime, "q");
    expect((await ask(runtime, "q")).additional_kwargs).toEqual({ refusal: "I can't help with that." });
    expect(cache.stats().hits).toBe(1);
  });

  it("opens its SQLite file under cache_dir in WAL mode", () => {
    const dir = mkdtempSync(join(tmpdir(), "llm-cache-"));
    const cache = ResponseCache.inDir(join(dir, "nested"));
    expect(cache.path).toBe(join(dir, "nested", RESPONSE_CACHE_FILE));
    cache.close();
    const db = new Database(join(dir, "nested", RESPONSE_CACHE_FILE), { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("creates the cache file under cache_dir only when a call needs it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "llm-cache-"));
    const file = join(dir, "from-config", RESPONSE_CACHE_FILE);
    const runtime = createLlmRuntime(testConfig({ model: "scripted:x", cache_dir: join(dir, "from-config") }), { modelFactory: () => fakeModel().respond(new AIMessage("a")) });
    expect(runtime.stats().cache).toEqual({ enabled: true, hits: 0, misses: 0, writes: 0 });
    expect(existsSync(file)).toBe(false);
    await ask(runtime, "q");
    expect(existsSync(file)).toBe(true);
    expect(runtime.stats().cache).toEqual({ enabled: true, hits: 0, misses: 1, writes: 1 });
    runtime.close();
  });
});
