import { HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { AIMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { describe, expect, it } from "vitest";
import { FoundryError } from "../../pipeline/core/errors.js";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { ModelRegistry, modelRefFor, parseModelSpec, providerFields, type ModelRef } from "../../pipeline/llm/model-registry.js";
import { testConfig } from "./helpers.js";

describe("parseModelSpec", () => {
  it("splits provider and model at the first colon; deterministic is no model", () => {
    expect(parseModelSpec("openai:gpt-4.1")).toEqual({ spec: "openai:gpt-4.1", provider: "openai", model: "gpt-4.1" });
    expect(parseModelSpec("ollama:qwen3:8b")).toEqual({ spec: "ollama:qwen3:8b", provider: "ollama", model: "qwen3:8b" });
    expect(parseModelSpec("deterministic")).toBeNull();
  });

  it("rejects a malformed spec with CONFIG_INVALID and the value", () => {
    for (const bad of ["gpt-4.1", "OpenAI:gpt", "openai:", ":gpt"]) {
      let err: unknown;
      try {
        parseModelSpec(bad);
      } catch (e) {
        err = e;
      }
      expect(FoundryError.is(err) && err.toIssue()).toEqual({ code: "CONFIG_INVALID", message: "a model must be `deterministic` or `provider:model` (e.g. `openai:gpt-4.1`)", path: "model", value: bad });
    }
  });
});

describe("per-role resolution", () => {
  const config = testConfig({ model: "openai:gpt-4.1", models: { "user-sim": "ollama:qwen3", calibrator: "deterministic" } });

  it("uses the role's own model, else the default, and null for deterministic roles", () => {
    expect(modelRefFor(config, "user-sim")?.spec).toBe("ollama:qwen3");
    expect(modelRefFor(config, "solver")?.spec).toBe("openai:gpt-4.1");
    expect(modelRefFor(config, "calibrator")).toBeNull();
    const runtime = createLlmRuntime(config, { cache: null });
    expect(runtime.modelFor("calibrator")).toBeNull();
    expect(runtime.chatModel({ role: "calibrator", stage: "calibrate" })).toBeNull();
    expect(runtime.chatModel({ role: "solver", stage: "probe" })).not.toBeNull();
  });

  it("builds each spec once through the injected factory, shared by every role naming it", async () => {
    const made: string[] = [];
    const registry = new ModelRegistry(config, {
      modelFactory: (ref) => {
        made.push(ref.spec);
        return fakeModel();
      },
    });
    const a = await registry.get(modelRefFor(config, "solver") as ModelRef);
    const b = await registry.get(modelRefFor(config, "verifier") as ModelRef);
    await registry.get(modelRefFor(config, "user-sim") as ModelRef);
    expect(a).toBe(b);
    expect(made).toEqual(["openai:gpt-4.1", "ollama:qwen3"]);
  });

  it("routes each role's calls to the model its spec names", async () => {
    const byName: Record<string, ReturnType<typeof fakeModel>> = {
      "scripted:designer": fakeModel().respond(new AIMessage("from designer")),
      "scripted:sim": fakeModel().respond(new AIMessage("from sim")),
    };
    const runtime = createLlmRuntime(testConfig({ model: "scripted:designer", models: { "user-sim": "scripted:sim" } }), {
      cache: null,
      modelFactory: (ref) => byName[ref.spec],
    });
    expect((await runtime.invoke({ role: "user-sim", stage: "simulate", messages: [new HumanMessage("hi")] })).content).toBe("from sim");
    expect((await runtime.invoke({ role: "task-designer", stage: "design", messages: [new HumanMessage("hi")] })).content).toBe("from designer");
  });

  it("refuses a deterministic role with LLM_NOT_CONFIGURED", async () => {
    const runtime = createLlmRuntime(config, { cache: null });
    await expect(runtime.invoke({ role: "calibrator", stage: "calibrate", messages: [new HumanMessage("x")] })).rejects.toMatchObject({
      code: "LLM_NOT_CONFIGURED",
      message: "role calibrator has no model (it runs deterministically)",
      location: { path: "models.calibrator" },
    });
  });

  it("resolves `scripted:` only through an injected factory", async () => {
    const ref = parseModelSpec("scripted:writer") as ModelRef;
    await expect(new ModelRegistry(testConfig()).get(ref)).rejects.toMatchObject({ code: "LLM_PROVIDER", message: "`scripted:` models exist only in tests, through an injected modelFactory", value: "scripted:writer" });
    // A factory that declines a spec does not make `scripted:` reach a real provider either.
    await expect(new ModelRegistry(testConfig(), { modelFactory: () => undefined }).get(ref)).rejects.toMatchObject({ code: "LLM_PROVIDER" });
  });
});

describe("real providers through initChatModel (no network)", () => {
  it("passes temperature, timeout, no provider retries and the OpenAI-compatible base URL", () => {
    const config = testConfig({ model: "openai:qwen3", base_url: "http://127.0.0.1:8000/v1", temperature: 0.3, timeout_ms: 5000 });
    const ref = parseModelSpec("openai:qwen3") as ModelRef;
    expect(providerFields(config, ref, {})).toEqual({
      modelProvider: "openai",
      temperature: 0.3,
      timeout: 5000,
      maxRetries: 0,
      configuration: { baseURL: "http://127.0.0.1:8000/v1", apiKey: "local-server" },
    });
    expect(providerFields(config, ref, { OPENAI_API_KEY: "sk-real" }).configuration).toEqual({ baseURL: "http://127.0.0.1:8000/v1" });
    expect(providerFields(config, parseModelSpec("ollama:qwen3") as ModelRef, {})).toEqual({ modelProvider: "ollama", temperature: 0.3, timeout: 5000, maxRetries: 0, baseUrl: "http://127.0.0.1:8000" });
    expect(providerFields({ ...config, num_ctx: 16384 }, parseModelSpec("ollama:qwen3") as ModelRef, {})).toEqual({ modelProvider: "ollama", temperature: 0.3, timeout: 5000, maxRetries: 0, baseUrl: "http://127.0.0.1:8000", numCtx: 16384 });
  });

  it("creates a ChatOllama with base_url and num_ctx from the config", async () => {
    const config = testConfig({ model: "ollama:qwen3", base_url: "http://127.0.0.1:11434", num_ctx: 8192 });
    // initChatModel keeps the fields it will construct ChatOllama with in its default config.
    const model = (await new ModelRegistry(config, { env: {} }).get(parseModelSpec("ollama:qwen3") as ModelRef)) as unknown as { _defaultConfig: Record<string, unknown> };
    expect(model._defaultConfig).toMatchObject({ modelProvider: "ollama", baseUrl: "http://127.0.0.1:11434", numCtx: 8192 });
  });

  it("creates a ChatOpenAI pointed at base_url", async () => {
    const config = testConfig({ model: "openai:gpt-4.1", base_url: "http://127.0.0.1:8000/v1" });
    const model = await new ModelRegistry(config, { env: {} }).get(parseModelSpec("openai:gpt-4.1") as ModelRef);
    const inner = await (model as unknown as { _getModelInstance(): Promise<unknown> })._getModelInstance();
    expect(inner).toBeInstanceOf(ChatOpenAI);
    expect((inner as ChatOpenAI).model).toBe("gpt-4.1");
    expect((inner as ChatOpenAI).temperature).toBe(0);
    expect((inner as unknown as { clientConfig: { baseURL?: string } }).clientConfig.baseURL).toBe("http://127.0.0.1:8000/v1");
  });

  it("reports a provider whose package is not installed as LLM_PROVIDER", async () => {
    const ref = parseModelSpec("groq:llama-3.3-70b") as ModelRef;
    const err = await new ModelRegistry(testConfig()).get(ref).catch((e: unknown) => e);
    expect(FoundryError.is(err) && err.code).toBe("LLM_PROVIDER");
    expect((err as Error).message).toMatch(/^cannot create model groq:llama-3\.3-70b: Unable to import @langchain\/groq/);
  });
});
