import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { z } from "zod";

/** Why a structured call gave up. */
export type StructuredFailure = "refusal" | "no_json" | "malformed_json" | "schema" | "timeout" | "model_error";

export interface StructuredCallOptions<T extends z.ZodType> {
  /** Any LangChain chat model. */
  model: Pick<BaseChatModel, "invoke">;
  /** What the answer must satisfy; `.describe()` texts reach the model through the JSON Schema. */
  schema: T;
  /** The conversation so far (system prompt, the task). */
  messages: readonly BaseMessage[];
  /** Calls at most (default 3): each failure is shown to the model, which tries again. */
  maxAttempts?: number;
  /** Time bound of one call in ms (default 60000); a call over it counts as a failed attempt. */
  timeoutMs?: number;
  /** Name of the call, used in messages (default `answer`). */
  name?: string;
  /** Append the schema as JSON Schema to the conversation (default true). */
  includeSchema?: boolean;
}

export type StructuredResult<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; attempts: number; error: { kind: StructuredFailure; message: string } };

const REFUSAL = /\b(?:I\s+(?:can(?:no|')t|am\s+(?:not\s+able|unable)|'m\s+(?:not\s+able|unable)|won't|will\s+not|must\s+decline)|cannot\s+(?:help|assist|comply))\b/i;

class CallTimeout extends Error {}

/** Text of a chat message, whatever the provider's content format. */
export function messageText(m: BaseMessage): string {
  if (typeof m.content === "string") return m.content;
  return m.content.map((p) => (typeof p === "string" ? p : p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
}

/** The JSON text in a model's answer: a fenced ```json block, the whole answer, or the outermost `{…}`/`[…]`. */
export function jsonCandidate(text: string): string | null {
  const fence = /```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)```/.exec(text);
  if (fence) return (fence[1] as string).trim();
  const t = text.trim();
  if (t.startsWith("{") || t.startsWith("[")) return t;
  const open = t.search(/[{[]/);
  if (open < 0) return null;
  const close = Math.max(t.lastIndexOf("}"), t.lastIndexOf("]"));
  return close > open ? t.slice(open, close + 1) : t.slice(open);
}

async function invokeWithin(model: Pick<BaseChatModel, "invoke">, messages: BaseMessage[], ms: number): Promise<BaseMessage> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // Race as well as abort: a model that ignores the signal must not hold the caller.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new CallTimeout(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([model.invoke(messages, { signal: abort.signal }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function schemaNote<T extends z.ZodType>(schema: T): string {
  try {
    return `Answer with one JSON object and nothing else. It must satisfy this JSON Schema:\n\`\`\`json\n${JSON.stringify(z.toJSONSchema(schema, { io: "input" }))}\n\`\`\``;
  } catch {
    return "Answer with one JSON object and nothing else.";
  }
}

/**
 * Ask a chat model for a JSON answer checked by a zod schema. The JSON is read from the model's
 * text (a ```json fence, or the bare object). A malformed or invalid answer is shown back to the
 * model with the error (z.prettifyError) and it tries again, at most `maxAttempts` calls in all;
 * an explicit refusal stops at once; a call over `timeoutMs` counts as a failed attempt.
 */
export async function structuredCall<T extends z.ZodType>(opts: StructuredCallOptions<T>): Promise<StructuredResult<z.infer<T>>> {
  const maxAttempts = opts.maxAttempts ?? 3;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const name = opts.name ?? "answer";
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`Expected \`maxAttempts\` to be a whole number from 1 and up, got \`${maxAttempts}\``);
  if (!(timeoutMs > 0)) throw new RangeError(`Expected \`timeoutMs\` to be a number above 0, got \`${timeoutMs}\``);
  const messages: BaseMessage[] = [...opts.messages];
  if (opts.includeSchema !== false) messages.push(new HumanMessage(schemaNote(opts.schema)));
  let last: { kind: StructuredFailure; message: string } = { kind: "model_error", message: "no attempt made" };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    let reply: BaseMessage;
    try {
      reply = await invokeWithin(opts.model, messages, timeoutMs);
    } catch (e) {
      if (e instanceof CallTimeout) {
        last = { kind: "timeout", message: `${name}: ${e.message}` };
        continue;
      }
      return { ok: false, attempts: attempt, error: { kind: "model_error", message: `${name}: ${(e as Error).message}` } };
    }
    const text = messageText(reply);
    const refusal = (reply.additional_kwargs as { refusal?: unknown } | undefined)?.refusal;
    const candidate = jsonCandidate(text);
    if (typeof refusal === "string" && refusal !== "") return { ok: false, attempts: attempt, error: { kind: "refusal", message: `${name}: the model refused: ${refusal}` } };
    if (candidate === null && REFUSAL.test(text)) return { ok: false, attempts: attempt, error: { kind: "refusal", message: `${name}: the model refused: ${text.trim().slice(0, 200)}` } };
    let feedback: string;
    if (candidate === null) {
      last = { kind: "no_json", message: `${name}: the answer contains no JSON object` };
      feedback = "Your answer contains no JSON object.";
    } else {
      let data: unknown;
      try {
        data = JSON.parse(candidate);
      } catch (e) {
        last = { kind: "malformed_json", message: `${name}: malformed JSON: ${(e as Error).message}` };
        messages.push(new AIMessage(text), new HumanMessage(`Your answer is not valid JSON (${(e as Error).message}). Reply again with only the corrected JSON object.`));
        continue;
      }
      const parsed = opts.schema.safeParse(data);
      if (parsed.success) return { ok: true, value: parsed.data, attempts: attempt };
      const pretty = z.prettifyError(parsed.error);
      last = { kind: "schema", message: `${name}: the answer does not match the schema:\n${pretty}` };
      feedback = `Your JSON does not match the schema:\n${pretty}`;
    }
    messages.push(new AIMessage(text), new HumanMessage(`${feedback}\nReply again with only the corrected JSON object.`));
  }
  return { ok: false, attempts: maxAttempts, error: last };
}
