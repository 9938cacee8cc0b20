import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { FoundryConfig } from "../../pipeline/core/config.js";
import type { Sleep } from "../../pipeline/llm/retry.js";

/** A full configuration from a few overrides (schema defaults for the rest). */
export function testConfig(overrides: Record<string, unknown> = {}): FoundryConfig {
  return FoundryConfig.parse({ cache_dir: "unused-in-tests", ...overrides });
}

/** A sleep that returns at once and remembers every wait it was asked for. */
export function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

/** One scripted HTTP answer: a status and JSON body, or `hang` (never answers; honours abort). */
export type ScriptedReply = { status: number; body: unknown; headers?: Record<string, string> } | "hang" | "network-error";

/** A Chat Completions answer as the OpenAI API sends it. */
export function completion(content: string, usage = { prompt_tokens: 12, completion_tokens: 3 }): ScriptedReply {
  return {
    status: 200,
    body: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "gpt-4.1",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    },
  };
}

/** A fetch that plays `replies` in order and records the requests it saw (parsed JSON bodies). */
export function scriptedFetch(replies: ScriptedReply[]): { fetch: typeof fetch; requests: Array<{ url: string; body: Record<string, unknown> }> } {
  const requests: Array<{ url: string; body: Record<string, unknown> }> = [];
  const fetchImpl = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests.push({ url: String(url), body: JSON.parse(String(init?.body ?? "{}")) as Record<string, unknown> });
    const reply = replies[requests.length - 1];
    if (reply === undefined) throw new Error(`scripted fetch: no reply for request ${requests.length}`);
    if (reply === "network-error") throw Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) });
    if (reply === "hang") {
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener("abort", () => reject(Object.assign(new Error("The operation was aborted."), { name: "AbortError" })), { once: true });
      });
    }
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json", ...(reply.headers ?? {}) } });
  };
  return { fetch: fetchImpl as typeof fetch, requests };
}

/** A chat model that answers after `latencyMs` with a text derived from the last message; counts calls in flight. */
export class LatencyModel extends BaseChatModel {
  inFlight = 0;
  maxInFlight = 0;
  calls = 0;

  constructor(readonly latencyMs: number) {
    super({});
  }

  _llmType(): string {
    return "latency-test";
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, this.latencyMs));
      const text = `echo:${messages.at(-1)?.text ?? ""}`;
      return { generations: [{ text, message: new AIMessage({ content: text, usage_metadata: { input_tokens: 10, output_tokens: 2, total_tokens: 12 } }) }] };
    } finally {
      this.inFlight--;
    }
  }
}

/** A chat model that never answers and ignores its abort signal. */
export class DeafModel extends BaseChatModel {
  calls = 0;

  constructor() {
    super({});
  }

  _llmType(): string {
    return "deaf-test";
  }

  override _generate(): Promise<ChatResult> {
    this.calls++;
    return new Promise<ChatResult>(() => {});
  }
}
