import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, coerceMessageLikeToMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import type { Runnable } from "@langchain/core/runnables";
import type { AgentRole, FoundryConfig } from "../core/config.js";
import { FoundryError } from "../core/errors.js";
import { RandomStream } from "../core/random.js";
import { Accounting, type CallScope, type UsageSnapshot } from "./accounting.js";
import { callWithTimeout } from "./call-timeout.js";
import { cacheEntry } from "./cache-key.js";
import { classifyError, FAILURE_CODES, InvalidAnswerError } from "./classify-error.js";
import { messageText, readStructuredAnswer } from "./answer-check.js";
import type { LlmInvoker, LlmRequest, ModelBinding } from "./llm-request.js";
import { ModelRegistry, modelRefFor, requiredKey, type ModelFactory, type ModelRef } from "./model-registry.js";
import type { Price } from "./model-prices.js";
import { ProviderQueues, type ProviderQueueStats } from "./provider-queue.js";
import { ResponseCache, storedForm, type ResponseCacheStats, type ResponseStore } from "./response-cache.js";
import { AttemptFailure, realSleep, withRetry, type RetryPolicy, type Sleep } from "./retry.js";
import { RuntimeChatModel } from "./runtime-chat-model.js";

/** Everything a runtime can be given besides the configuration; all optional. */
export interface LlmRuntimeOptions {
  /** Builds models for specs (tests: scripted models); see ModelFactory. */
  modelFactory?: ModelFactory;
  /** Wall clock in epoch ms, for Retry-After dates and call timing. Default Date.now. */
  now?: () => number;
  /** Backoff wait. Default: a real timer. */
  sleep?: Sleep;
  /** Stream for backoff jitter. Default: fork `llm-retry` of the config seed (0 when unset). */
  random?: RandomStream;
  /** Response cache. Default: `llm-cache.sqlite` under `config.cache_dir`; null: no cache; the postgres backend passes its table. */
  cache?: ResponseStore | null;
  /** Calls that may start per `rate_interval_ms` window. Default 1. */
  intervalCap?: number;
  /** Backoff shape; the number of retries always comes from `config.max_retries`. */
  backoff?: Omit<RetryPolicy, "retries">;
  /** Price table replacing the built-in one. */
  prices?: Readonly<Record<string, Price>>;
  /** Environment for provider credentials. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** What `stats()` reports. Only `usage` is deterministic for a given cache state; `timing` is wall time. */
export interface LlmStats {
  usage: UsageSnapshot;
  cache: (ResponseCacheStats & { enabled: true }) | { enabled: false };
  queues: Record<string, ProviderQueueStats>;
  timing: { modelMs: number };
}

/** The LLM layer of one build: models, provider queues, response cache and accounting. */
export interface LlmRuntime extends LlmInvoker {
  readonly config: FoundryConfig;
  /** The model a role uses, or null when it runs deterministically (the caller then uses its deterministic strategy). */
  modelFor(role: AgentRole): ModelRef | null;
  /**
   * Cache → provider queue → retry (with a per-attempt timeout) → model. Answers come back as
   * AIMessage, identical whether fresh or cached. Errors are FoundryErrors (LLM_*), never cached.
   */
  invoke(request: LlmRequest): Promise<AIMessage>;
  /**
   * Before any work: every role in `roles` whose provider needs an API key that the environment
   * lacks, reported together as one LLM_AUTH error (one missing key never hides another).
   */
  preflight(roles: readonly AgentRole[]): void;
  /** A LangChain chat model bound to a role, stage and item whose calls take the same path; null for a deterministic role. */
  chatModel(binding: ModelBinding): RuntimeChatModel | null;
  stats(): LlmStats;
  /** Close the response cache if the runtime opened it. */
  close(): void;
}

function bindInner(model: BaseChatModel, ref: ModelRef, request: LlmRequest): Runnable<BaseMessage[], unknown> {
  const { tools, toolOptions: options, structured } = request;
  if (structured?.native) {
    if (typeof model.withStructuredOutput !== "function") {
      throw new FoundryError("LLM_NO_STRUCTURED_OUTPUT", `model ${ref.spec} has no native structured output: set structured_output: prompt`, { path: "structured_output" }, ref.spec);
    }
    // A plain JSON Schema (not zod), so the provider's parser never throws on a bad answer: the
    // raw message comes back and is checked below, where a bad answer is shown to the model.
    const jsonSchema = z.toJSONSchema(structured.schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    // OpenAI-compatible servers get a forced tool call: with response_format json_schema,
    // @langchain/openai 1.5.8 calls the SDK's parse(), which throws away an answer that is not JSON
    // (a <think> block, a truncated object) instead of returning it to be shown to the model.
    const method = ref.provider === "openai" ? { method: "functionCalling" as const } : {};
    const inner = model.withStructuredOutput(jsonSchema, { name: structured.name, includeRaw: true, ...method });
    return inner.pipe((out: { raw: BaseMessage }) => out.raw) as unknown as Runnable<BaseMessage[], unknown>;
  }
  if (tools?.length) {
    if (typeof model.bindTools !== "function") {
      throw new FoundryError("LLM_NO_TOOLS", `model ${ref.spec} cannot call tools`, { path: "model" }, ref.spec);
    }
    return model.bindTools(tools as Parameters<NonNullable<BaseChatModel["bindTools"]>>[0], options) as Runnable<BaseMessage[], unknown>;
  }
  if (options && Object.keys(options).length) return model.withConfig(options as Record<string, never>) as Runnable<BaseMessage[], unknown>;
  return model as Runnable<BaseMessage[], unknown>;
}

/** The answer as text for the conversation that shows the model its error. */
function replyText(m: AIMessage): string {
  const text = messageText(m);
  if (text !== "") return text;
  const call = m.tool_calls?.[0] ?? m.invalid_tool_calls?.[0];
  return call ? (typeof call.args === "string" ? call.args : JSON.stringify(call.args)) : "";
}

function finalError(e: unknown, ref: ModelRef, scope: CallScope): FoundryError {
  if (FoundryError.is(e)) return e;
  if (e instanceof AttemptFailure && FoundryError.is(e.original)) return e.original;
  const failure = e instanceof AttemptFailure ? e.failure : classifyError(e);
  const attempts = e instanceof AttemptFailure ? e.attempts : 0;
  const original = e instanceof AttemptFailure ? e.original : e;
  const where = `stage ${scope.stage}${scope.item !== undefined ? `, item ${scope.item}` : ""}`;
  const http = failure.status !== undefined ? ` (HTTP ${failure.status})` : "";
  const message = `${ref.spec} failed for ${where} after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${failure.kind}${http}: ${original instanceof Error ? original.message : String(original)}`;
  const value: Record<string, unknown> = { model: ref.spec, stage: scope.stage, attempts };
  if (scope.item !== undefined) value.item = scope.item;
  if (failure.status !== undefined) value.status = failure.status;
  const err = new FoundryError(FAILURE_CODES[failure.kind], message, {}, value);
  Object.defineProperty(err, "cause", { value: original, enumerable: false });
  return err;
}

function passes(answer: AIMessage, spec: NonNullable<LlmRequest["structured"]>): boolean {
  try {
    readStructuredAnswer(answer, spec.schema, spec.name);
    return true;
  } catch {
    return false;
  }
}

/** Create the LLM layer of one build. Nothing is shared between runtimes. */
export function createLlmRuntime(config: FoundryConfig, options: LlmRuntimeOptions = {}): LlmRuntime {
  const registry = new ModelRegistry(config, { ...(options.modelFactory ? { modelFactory: options.modelFactory } : {}), ...(options.env ? { env: options.env } : {}) });
  const queues = new ProviderQueues({ concurrency: config.concurrency, intervalMs: config.rate_interval_ms, ...(options.intervalCap !== undefined ? { intervalCap: options.intervalCap } : {}) });
  const ownsCache = options.cache === undefined;
  // Opened on the first call that needs it, so a fully deterministic build never creates the file.
  let opened: ResponseStore | null | undefined = options.cache;
  const cacheEnabled = options.cache !== null;
  const openCache = (): ResponseStore | null => (opened === undefined ? (opened = ResponseCache.inDir(config.cache_dir)) : opened);
  const accounting = new Accounting(options.prices);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? new RandomStream(config.seed ?? 0).fork("llm-retry");
  const policy: RetryPolicy = { ...(options.backoff ?? {}), retries: config.max_retries };
  let modelMs = 0;

  const runtime: LlmRuntime = {
    config,
    modelFor: (role) => modelRefFor(config, role),

    async invoke(request) {
      const ref = modelRefFor(config, request.role);
      if (!ref) {
        throw new FoundryError("LLM_NOT_CONFIGURED", `role ${request.role} has no model (it runs deterministically)`, { path: `models.${request.role}` }, "deterministic");
      }
      const scope: CallScope = { stage: request.stage, ref, ...(request.item !== undefined ? { item: request.item } : {}) };
      accounting.count(scope, "requests");
      const messages = request.messages.map((m) => coerceMessageLikeToMessage(m));
      const cache = cacheEnabled && request.cache !== false ? openCache() : null;
      const useCache = cache !== null;
      const entry = useCache
        ? cacheEntry({
            ref,
            settings: registry.settings(ref),
            messages,
            ...(request.tools ? { tools: request.tools } : {}),
            ...(request.toolOptions ? { callOptions: request.toolOptions } : {}),
            ...(request.schemaForKey !== undefined ? { schema: request.schemaForKey } : {}),
            ...(request.variant !== undefined ? { variant: request.variant } : {}),
            ...(request.structured ? { structured: { name: request.structured.name, native: request.structured.native, schema: request.structured.schema } } : {}),
          })
        : undefined;
      if (cache && entry) {
        const hit = await cache.get(entry.key);
        // A stored answer that no longer passes its check (it cannot, unless the check changed) is a miss.
        if (hit && (!request.structured || passes(hit, request.structured))) {
          accounting.count(scope, "cacheHits");
          return hit;
        }
      }
      let answer: AIMessage;
      // The conversation of the next attempt: grows by the bad answer and its error when a structured answer fails its check.
      let conversation = messages;
      try {
        const model = await registry.get(ref);
        const runnable = bindInner(model, ref, request);
        const raw = await queues.run(
          ref.provider,
          () =>
            withRetry(
              async () => {
                accounting.count(scope, "modelCalls");
                const started = now();
                let reply: unknown;
                try {
                  reply = await callWithTimeout((signal) => runnable.invoke(conversation, { signal }), config.timeout_ms, request.signal);
                } finally {
                  modelMs += now() - started;
                }
                if (!AIMessage.isInstance(reply) && !(reply as { type?: unknown })?.type) {
                  throw new FoundryError("LLM_BAD_ANSWER", `${ref.spec} returned something that is not a chat message`, {}, { model: ref.spec, stage: request.stage });
                }
                // The same round trip a cache hit takes (canonical JSON, keys sorted), so a fresh answer and its replay are identical.
                const message = storedForm(reply as AIMessage);
                accounting.usage(scope, message.usage_metadata?.input_tokens ?? 0, message.usage_metadata?.output_tokens ?? 0);
                if (request.structured) {
                  try {
                    readStructuredAnswer(message, request.structured.schema, request.structured.name);
                  } catch (e) {
                    if (e instanceof InvalidAnswerError && e.feedback !== null) conversation = [...conversation, new AIMessage(replyText(message)), new HumanMessage(e.feedback)];
                    throw e;
                  }
                }
                return message;
              },
              { policy, random, sleep, now, ...(request.signal ? { signal: request.signal } : {}), onRetry: () => accounting.count(scope, "retries") },
            ),
          request.signal,
        );
        answer = raw;
      } catch (e) {
        const err = finalError(e, ref, scope);
        accounting.failure(scope, err.code);
        throw err;
      }
      if (cache && entry) await cache.put(entry, ref.spec, answer);
      return answer;
    },

    preflight(roles) {
      const env = options.env ?? process.env;
      const missing = new Map<string, string[]>();
      let first: AgentRole | null = null;
      for (const role of roles) {
        const ref = modelRefFor(config, role);
        const key = ref ? requiredKey(config, ref) : null;
        if (!ref || !key || env[key]) continue;
        missing.set(key, [...(missing.get(key) ?? []), `${role} (${ref.spec})`]);
        first ??= role;
      }
      if (missing.size === 0) return;
      const parts = [...missing].map(([key, who]) => `${key} is not set, needed by ${who.join(", ")}`);
      // The path names a role whose key is missing (its per-role setting, or the shared `model`).
      const path = first && config.models[first] !== undefined ? `models.${first}` : "model";
      throw new FoundryError("LLM_AUTH", `${parts.join("; ")}: set the key, or base_url for a local OpenAI-compatible server`, { path }, [...missing.keys()]);
    },

    chatModel(binding) {
      return modelRefFor(config, binding.role) ? new RuntimeChatModel(runtime, binding) : null;
    },

    stats() {
      return {
        usage: accounting.snapshot(),
        cache: cacheEnabled ? { enabled: true, ...(opened ? opened.stats() : { hits: 0, misses: 0, writes: 0 }) } : { enabled: false },
        queues: queues.stats(),
        timing: { modelMs },
      };
    },

    close() {
      if (ownsCache && opened) opened.close();
    },
  };
  return runtime;
}
