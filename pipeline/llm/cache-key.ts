import type { BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { z } from "zod";
import { canonicalJson, sha256 } from "../core/canonical-json.js";
import type { ModelRef, ModelSettings } from "./model-registry.js";

/** Bumped whenever the key material or the stored value changes shape; old entries then simply miss. */
export const CACHE_FORMAT_VERSION = 3;

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

// A tool list is the same objects on every call of an agent loop: converted once.
const toolKeys = new WeakMap<object, unknown>();

function toolKey(tool: unknown): unknown {
  if (typeof tool === "object" && tool !== null) {
    const known = toolKeys.get(tool);
    if (known !== undefined) return known;
    const computed = computeToolKey(tool);
    toolKeys.set(tool, computed);
    return computed;
  }
  return computeToolKey(tool);
}

function computeToolKey(tool: unknown): unknown {
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
  return renumberedIds(messages).map((ids, i) => messageForm(messages[i] as BaseMessage, ids));
}

type ToolCalls = Array<{ name: string; args: unknown; id?: string }>;

/** Per message, its tool-call ids (and the id it answers) renumbered by first appearance in the conversation. */
function renumberedIds(messages: readonly BaseMessage[]): Array<{ calls: Array<string | null>; answered: string | null | undefined }> {
  const ids = new Map<string, string>();
  const idOf = (id: unknown): string | null => {
    if (typeof id !== "string") return null;
    if (!ids.has(id)) ids.set(id, `#${ids.size}`);
    return ids.get(id) as string;
  };
  return messages.map((m) => {
    const calls = ((m as { tool_calls?: ToolCalls }).tool_calls ?? []).map((c) => idOf(c.id));
    const answered = (m as { tool_call_id?: unknown }).tool_call_id;
    return { calls, answered: answered === undefined ? undefined : idOf(answered) };
  });
}

/** One message as role + content + tool calls, with its renumbered ids. */
function messageForm(m: BaseMessage, ids: { calls: Array<string | null>; answered: string | null | undefined }): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.type, content: keyable(m.content) };
  if (m.name) out.name = m.name;
  const toolCalls = (m as { tool_calls?: ToolCalls }).tool_calls;
  if (toolCalls?.length) out.tool_calls = toolCalls.map((c, i) => ({ name: c.name, args: keyable(c.args), id: ids.calls[i] ?? null }));
  if (ids.answered !== undefined) out.tool_call_id = ids.answered;
  return out;
}

/** A message of a request in the stored form: the sha256 of its canonical JSON, and that JSON. */
export interface KeyedMessage {
  hash: string;
  json: string;
}

// An agent loop sends the same message objects again on every call, each time with one more: a
// message's canonical form is computed once. Reused only while the message's content and tool calls
// are the same values and its ids renumber the same way (messages are never edited in place here).
const messageMemo = new WeakMap<BaseMessage, { content: unknown; toolCalls: unknown; ids: string; keyed: KeyedMessage }>();

function keyedMessages(messages: readonly BaseMessage[]): KeyedMessage[] {
  return renumberedIds(messages).map((ids, i) => {
    const m = messages[i] as BaseMessage;
    const sig = JSON.stringify(ids);
    const toolCalls = (m as { tool_calls?: unknown }).tool_calls;
    const known = messageMemo.get(m);
    if (known && known.content === m.content && known.toolCalls === toolCalls && known.ids === sig) return known.keyed;
    const json = canonicalJson(messageForm(m, ids));
    const keyed = { hash: sha256(json), json };
    messageMemo.set(m, { content: m.content, toolCalls, ids: sig, keyed });
    return keyed;
  });
}

/**
 * A request as the response cache keys and stores it: the canonical JSON of its key material with
 * each message replaced by the sha256 of its canonical form (so the key is computed in time linear
 * in what is new, and a store keeps each message once however many requests repeat it), the key
 * (sha256 of that JSON), and the messages themselves.
 */
export interface CacheEntry {
  key: string;
  request: string;
  messages: KeyedMessage[];
}

/** The key, stored request and messages of a request (cache format 3). */
export function cacheEntry(input: CacheKeyInput): CacheEntry {
  const messages = keyedMessages(input.messages);
  const request = canonicalJson({ ...cacheKeyMaterial({ ...input, messages: [] }), messages: messages.map((m) => m.hash) });
  return { key: sha256(request), request, messages };
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

/** The response cache's key of a request (see cacheEntry). */
export function cacheKey(input: CacheKeyInput): string {
  return cacheEntry(input).key;
}
