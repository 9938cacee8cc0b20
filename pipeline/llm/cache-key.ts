import type { BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { z } from "zod";
import { contentHash } from "../core/canonical-json.js";
import type { ModelRef, ModelSettings } from "./model-registry.js";

/** Bumped whenever the key material or the stored value changes shape; old entries then simply miss. */
export const CACHE_FORMAT_VERSION = 2;

/** Everything that can change a model's answer, and nothing else. */
export interface CacheKeyInput {
  ref: ModelRef;
  settings: ModelSettings;
  messages: readonly BaseMessage[];
  /** Tools bound to the call (LangChain tools, tool specs or OpenAI tool objects). */
  tools?: readonly unknown[];
  /** Options bound with the tools or passed to the call (tool_choice, response_format, …). */
  callOptions?: Record<string, unknown>;
  /** Output schema the answer must satisfy (zod or JSON Schema). */
  schema?: unknown;
  /** Separates requests that must be sampled independently (e.g. run 2 of k). */
  variant?: string;
  /** The structured answer asked for: its name, native or prompt-only, and schema. */
  structured?: { name: string; native: boolean; schema: unknown };
}

function isZod(v: unknown): v is z.ZodType {
  return typeof v === "object" && v !== null && "_zod" in v;
}

/** JSON-safe form of a value for hashing: zod schemas become JSON Schema; functions and undefined drop out. */
export function keyable(value: unknown): unknown {
  if (isZod(value)) return z.toJSONSchema(value, { unrepresentable: "any" });
  if (Array.isArray(value)) return value.map((v) => keyable(v) ?? null);
  if (value === null || typeof value !== "object") return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const kv = keyable(v);
    if (kv !== undefined) out[k] = kv;
  }
  return out;
}

function toolKey(tool: unknown): unknown {
  try {
    const t = convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]) as { function?: { name?: string; description?: string; parameters?: unknown } };
    if (t.function?.name) return keyable({ name: t.function.name, description: t.function.description ?? "", parameters: t.function.parameters ?? {} });
  } catch {
    // Provider built-in tools (e.g. `{ type: "web_search" }`) have no function form; hash them as given.
  }
  return keyable(tool);
}

/**
 * Messages as role + content + tool calls. Tool-call ids are replaced by their order of first
 * appearance (`#0`, `#1`, …): providers and fakes mint them at random, but which result answers
 * which call still matters.
 */
export function messagesKey(messages: readonly BaseMessage[]): unknown[] {
  const ids = new Map<string, string>();
  const idOf = (id: unknown): string | undefined => {
    if (typeof id !== "string") return undefined;
    if (!ids.has(id)) ids.set(id, `#${ids.size}`);
    return ids.get(id);
  };
  return messages.map((m) => {
    const out: Record<string, unknown> = { role: m.type, content: keyable(m.content) };
    if (m.name) out.name = m.name;
    const toolCalls = (m as { tool_calls?: Array<{ name: string; args: unknown; id?: string }> }).tool_calls;
    if (toolCalls?.length) out.tool_calls = toolCalls.map((c) => ({ name: c.name, args: keyable(c.args), id: idOf(c.id) ?? null }));
    const answered = (m as { tool_call_id?: unknown }).tool_call_id;
    if (answered !== undefined) out.tool_call_id = idOf(answered) ?? null;
    return out;
  });
}

/** The canonical key material of a request (stored beside the answer so a hit can be audited). */
export function cacheKeyMaterial(input: CacheKeyInput): Record<string, unknown> {
  const callOptions = Object.fromEntries(Object.entries(input.callOptions ?? {}).filter(([k]) => !k.startsWith("ls_")));
  return {
    v: CACHE_FORMAT_VERSION,
    provider: input.ref.provider,
    model: input.ref.model,
    settings: keyable({ ...input.settings, ...callOptions }),
    messages: messagesKey(input.messages),
    tools: (input.tools ?? []).map(toolKey),
    schema: input.schema === undefined ? null : keyable(input.schema),
    variant: input.variant ?? null,
    structured: input.structured === undefined ? null : keyable(input.structured),
  };
}

/** sha256 of the canonical JSON of the key material. */
export function cacheKey(input: CacheKeyInput): string {
  return contentHash(cacheKeyMaterial(input));
}
