import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { modelFor, type AgentRole, type FoundryConfig } from "../core/config.js";
import { FoundryError } from "../core/errors.js";

/** A model spec split into its parts: `openai:gpt-4.1` → `{ provider: "openai", model: "gpt-4.1" }`. */
export interface ModelRef {
  /** The spec as written, e.g. `ollama:qwen3:8b`. */
  spec: string;
  provider: string;
  /** Everything after the first colon (Ollama tags keep their own colon). */
  model: string;
}

/** Settings that change a model's output; they go into every cache key of that model. */
export interface ModelSettings {
  temperature: number;
  /** The server the requests go to (openai: `base_url`; ollama: `base_url` or its default); null: the provider's own. */
  base_url: string | null;
  /** Ollama's context window; null elsewhere or when unset. */
  num_ctx: number | null;
  /** How structured answers are asked for (config `structured_output`). */
  structured_output: "native" | "prompt";
}

/** The output-relevant settings of `ref` under `config` (also the key material of both caches). */
export function modelSettings(config: FoundryConfig, ref: ModelRef): ModelSettings {
  const base = ref.provider === "openai" || ref.provider === "ollama" ? config.base_url : null;
  return { temperature: config.temperature, base_url: base, num_ctx: ref.provider === "ollama" ? config.num_ctx : null, structured_output: config.structured_output };
}

/** Environment variable holding the API key a provider needs, or null when it needs none here. */
export function requiredKey(config: FoundryConfig, ref: ModelRef): string | null {
  if (ref.provider === "openai") return config.base_url ? null : "OPENAI_API_KEY";
  if (ref.provider === "anthropic") return "ANTHROPIC_API_KEY";
  return null;
}

/**
 * Builds the chat model for a spec. Return `undefined` to fall back to the real provider
 * (through `initChatModel`); tests return scripted models here, which is the only way a
 * `scripted:<name>` spec resolves.
 */
export type ModelFactory = (ref: ModelRef, settings: ModelSettings) => BaseChatModel | undefined | Promise<BaseChatModel | undefined>;

/** The provider reserved for scripted test models; never resolved by `initChatModel`. */
export const SCRIPTED_PROVIDER = "scripted";

/** Split a spec; `deterministic` (no model) gives null. A malformed spec is a CONFIG_INVALID error. */
export function parseModelSpec(spec: string): ModelRef | null {
  if (spec === "deterministic") return null;
  const colon = spec.indexOf(":");
  const provider = colon > 0 ? spec.slice(0, colon) : "";
  const model = colon > 0 ? spec.slice(colon + 1) : "";
  if (!/^[a-z][a-z0-9_-]*$/.test(provider) || model === "" || /\s/.test(model)) {
    throw new FoundryError("CONFIG_INVALID", "a model must be `deterministic` or `provider:model` (e.g. `openai:gpt-4.1`)", { path: "model" }, spec);
  }
  return { spec, provider, model };
}

/** The model reference an agent role uses, or null when the role runs deterministically. */
export function modelRefFor(config: FoundryConfig, role: AgentRole): ModelRef | null {
  return parseModelSpec(modelFor(config, role));
}

/** Constructor fields passed to `initChatModel` for one spec under this configuration. */
export function providerFields(config: FoundryConfig, ref: ModelRef, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    modelProvider: ref.provider,
    temperature: config.temperature,
    timeout: config.timeout_ms,
    // The runtime is the only retry layer: a provider's own retries would hide 429s from the
    // accounting and multiply the time a failing call can take.
    maxRetries: 0,
  };
  if (ref.provider === "openai" && config.base_url) {
    const configuration: Record<string, unknown> = { baseURL: config.base_url };
    // Local OpenAI-compatible servers (vLLM, llama.cpp, Ollama's /v1) take any key, but the SDK
    // refuses to start without one.
    if (!env.OPENAI_API_KEY) configuration.apiKey = "local-server";
    fields.configuration = configuration;
  }
  if (ref.provider === "ollama") {
    // Ollama's own API sits at the server root; its OpenAI-compatible one under /v1, which base_url may name.
    if (config.base_url) fields.baseUrl = config.base_url.replace(/\/v1\/?$/, "");
    if (config.num_ctx !== null) fields.numCtx = config.num_ctx;
  }
  return fields;
}

/** Resolves model refs to chat models, once per spec, shared by every role that names it. */
export class ModelRegistry {
  readonly #config: FoundryConfig;
  readonly #factory: ModelFactory | undefined;
  readonly #env: NodeJS.ProcessEnv;
  readonly #models = new Map<string, Promise<BaseChatModel>>();

  constructor(config: FoundryConfig, opts: { modelFactory?: ModelFactory; env?: NodeJS.ProcessEnv } = {}) {
    this.#config = config;
    this.#factory = opts.modelFactory;
    this.#env = opts.env ?? process.env;
  }

  /** Output-relevant settings of a model under this configuration. */
  settings(ref: ModelRef): ModelSettings {
    return modelSettings(this.#config, ref);
  }

  /** The chat model of `ref` (created on first use). Creation failures are LLM_PROVIDER errors. */
  get(ref: ModelRef): Promise<BaseChatModel> {
    let model = this.#models.get(ref.spec);
    if (!model) {
      model = this.#create(ref);
      // A failed creation is not remembered: the next call reports the same error afresh.
      model.catch(() => this.#models.delete(ref.spec));
      this.#models.set(ref.spec, model);
    }
    return model;
  }

  async #create(ref: ModelRef): Promise<BaseChatModel> {
    const settings = this.settings(ref);
    const injected = this.#factory ? await this.#factory(ref, settings) : undefined;
    if (injected) return injected;
    if (ref.provider === SCRIPTED_PROVIDER) {
      throw new FoundryError("LLM_PROVIDER", "`scripted:` models exist only in tests, through an injected modelFactory", { path: "model" }, ref.spec);
    }
    try {
      // langchain (with every provider's glue) loads only when a real provider is asked for.
      const { initChatModel } = await import("langchain");
      return (await initChatModel(ref.model, providerFields(this.#config, ref, this.#env))) as unknown as BaseChatModel;
    } catch (e) {
      throw new FoundryError("LLM_PROVIDER", `cannot create model ${ref.spec}: ${(e as Error).message}`, { path: "model" }, ref.spec);
    }
  }
}
