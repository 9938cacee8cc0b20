import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, coerceMessageLikeToMessage, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { AgentRole, FoundryConfig } from "../core/config.js";
import { contentHash } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { RandomStream } from "../core/random.js";
import { Accounting, type CallScope, type UsageSnapshot } from "./accounting.js";
import { callWithTimeout } from "./call-timeout.js";
import { cacheKeyMaterial } from "./cache-key.js";
import { classifyError, FAILURE_CODES } from "./classify-error.js";
import type { LlmInvoker, LlmRequest, ModelBinding } from "./llm-request.js";
import { ModelRegistry, modelRefFor, type ModelFactory, type ModelRef } from "./model-registry.js";
import type { Price } from "./model-prices.js";
import { ProviderQueues, type ProviderQueueStats } from "./provider-queue.js";
import { rehydrateAnswer, ResponseCache, serializeAnswer, type ResponseCacheStats } from "./response-cache.js";
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
  /** Response cache. Default: `llm-cache.sqlite` under `config.cache_dir`; null: no cache. */
  cache?: ResponseCache | null;
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
  /** A LangChain chat model bound to a role, stage and item whose calls take the same path; null for a deterministic role. */
  chatModel(binding: ModelBinding): RuntimeChatModel | null;
  stats(): LlmStats;
  /** Close the response cache if the runtime opened it. */
  close(): void;
}

function bindInner(model: BaseChatModel, ref: ModelRef, tools: readonly unknown[] | undefined, options: Record<string, unknown> | undefined): Runnable<BaseMessage[], unknown> {
  if (tools?.length) {
    if (typeof model.bindTools !== "function") {
      throw new FoundryError("LLM_NO_TOOLS", `model ${ref.spec} cannot call tools`, { path: "model" }, ref.spec);
    }
    return model.bindTools(tools as Parameters<NonNullable<BaseChatModel["bindTools"]>>[0], options) as Runnable<BaseMessage[], unknown>;
  }
  if (options && Object.keys(options).length) return model.withConfig(options as Record<string, never>) as Runnable<BaseMessage[], unknown>;
  return model as Runnable<BaseMessage[], unknown>;
}

function finalError(e: unknown, ref: ModelRef, scope: CallScope): FoundryError {
  if (FoundryError.is(e)) return e;
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

/** Create the LLM layer of one build. Nothing is shared between runtimes. */
export function createLlmRuntime(config: FoundryConfig, options: LlmRuntimeOptions = {}): LlmRuntime {
  const registry = new ModelRegistry(config, { ...(options.modelFactory ? { modelFactory: options.modelFactory } : {}), ...(options.env ? { env: options.env } : {}) });
  const queues = new ProviderQueues({ concurrency: config.concurrency, intervalMs: config.rate_interval_ms, ...(options.intervalCap !== undefined ? { intervalCap: options.intervalCap } : {}) });
  const ownsCache = options.cache === undefined;
  // Opened on the first call that needs it, so a fully deterministic build never creates the file.
  let opened: ResponseCache | null | undefined = options.cache;
  const cacheEnabled = options.cache !== null;
  const openCache = (): ResponseCache | null => (opened === undefined ? (opened = ResponseCache.inDir(config.cache_dir)) : opened);
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
      const material = useCache
        ? cacheKeyMaterial({
            ref,
            settings: registry.settings(ref),
            messages,
            ...(request.tools ? { tools: request.tools } : {}),
            ...(request.toolOptions ? { callOptions: request.toolOptions } : {}),
            ...(request.schemaForKey !== undefined ? { schema: request.schemaForKey } : {}),
            ...(request.variant !== undefined ? { variant: request.variant } : {}),
          })
        : undefined;
      const key = material ? contentHash(material) : undefined;
      if (cache && key) {
        const hit = cache.get(key);
        if (hit) {
          accounting.count(scope, "cacheHits");
          return hit;
        }
      }
      let answer: AIMessage;
      try {
        const model = await registry.get(ref);
        const runnable = bindInner(model, ref, request.tools, request.toolOptions);
        const raw = await queues.run(
          ref.provider,
          () =>
            withRetry(
              async () => {
                accounting.count(scope, "modelCalls");
                const started = now();
                try {
                  return await callWithTimeout((signal) => runnable.invoke(messages, { signal }), config.timeout_ms, request.signal);
                } finally {
                  modelMs += now() - started;
                }
              },
              { policy, random, sleep, now, ...(request.signal ? { signal: request.signal } : {}), onRetry: () => accounting.count(scope, "retries") },
            ),
          request.signal,
        );
        if (!AIMessage.isInstance(raw) && !(raw as { type?: unknown })?.type) {
          throw new FoundryError("LLM_BAD_ANSWER", `${ref.spec} returned something that is not a chat message`, {}, { model: ref.spec, stage: request.stage });
        }
        // The same round trip a cache hit takes, so a fresh answer and its replay are identical.
        answer = rehydrateAnswer(serializeAnswer(raw as AIMessage));
      } catch (e) {
        const err = finalError(e, ref, scope);
        accounting.failure(scope, err.code);
        throw err;
      }
      const usage = answer.usage_metadata;
      accounting.usage(scope, usage?.input_tokens ?? 0, usage?.output_tokens ?? 0);
      if (cache && key && material) cache.put(key, ref.spec, material, answer);
      return answer;
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
