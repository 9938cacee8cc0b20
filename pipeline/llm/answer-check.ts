import type { BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import { InvalidAnswerError } from "./classify-error.js";

/**
 * The explicit refusal marker: a model that will not answer says so on a line of its own,
 * `REFUSE: <reason>`. Prose such as "I can't" is not a refusal (it is retried like any answer
 * without JSON); only this marker or the provider's refusal field stops at once.
 */
export const REFUSAL_MARKER = "REFUSE:";

/** Text of a chat message, whatever the provider's content format. */
export function messageText(m: BaseMessage): string {
  if (typeof m.content === "string") return m.content;
  return m.content.map((p) => (typeof p === "string" ? p : p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
}

/** The answer without reasoning blocks (`<think>…</think>`, Qwen3/DeepSeek style; an unclosed one runs to the end). */
export function stripReasoning(text: string): string {
  return text.replace(/<think(?:ing)?>[\s\S]*?(?:<\/think(?:ing)?>|$)/gi, "").trim();
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

/**
 * Read a structured answer from a model's reply and check it with `schema`. The value comes from
 * the tool call of that name (tool-calling structured output), else from the text with reasoning
 * blocks removed (JSON-schema or prompt-only output). Throws an InvalidAnswerError whose
 * `feedback` tells the model what was wrong; a refusal (provider field or marker) is not retriable.
 */
export function readStructuredAnswer<T extends z.ZodType>(reply: BaseMessage, schema: T, name: string): z.infer<T> {
  const refusal = (reply.additional_kwargs as { refusal?: unknown } | undefined)?.refusal;
  if (typeof refusal === "string" && refusal !== "") throw new InvalidAnswerError(`${name}: the model refused: ${refusal}`, "refusal", null);
  const text = stripReasoning(messageText(reply));
  const marker = text.split(/\r?\n/).find((l) => l.trim().startsWith(REFUSAL_MARKER));
  if (marker !== undefined) throw new InvalidAnswerError(`${name}: the model refused: ${marker.trim().slice(REFUSAL_MARKER.length).trim()}`, "refusal", null);
  const ai = reply as { tool_calls?: Array<{ name: string; args: unknown }>; invalid_tool_calls?: Array<{ name?: string; args?: string; error?: string }> };
  let data: unknown;
  const call = ai.tool_calls?.[0];
  const bad = ai.invalid_tool_calls?.[0];
  if (call) data = call.args;
  else if (bad) {
    throw new InvalidAnswerError(`${name}: malformed JSON in the ${bad.name ?? "tool"} call: ${bad.error ?? bad.args ?? ""}`, "malformed_json", `Your ${bad.name ?? "tool"} call's arguments are not valid JSON (${bad.error ?? "unparseable"}). Call it again with corrected arguments.`);
  } else {
    const candidate = jsonCandidate(text);
    if (candidate === null) throw new InvalidAnswerError(`${name}: the answer contains no JSON object`, "no_json", "Your answer contains no JSON object.\nReply again with only the corrected JSON object.");
    try {
      data = JSON.parse(candidate);
    } catch (e) {
      throw new InvalidAnswerError(`${name}: malformed JSON: ${(e as Error).message}`, "malformed_json", `Your answer is not valid JSON (${(e as Error).message}). Reply again with only the corrected JSON object.`);
    }
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const pretty = z.prettifyError(parsed.error);
  throw new InvalidAnswerError(`${name}: the answer does not match the schema:\n${pretty}`, "schema", `Your JSON does not match the schema:\n${pretty}\nReply again with only the corrected JSON object.`);
}
