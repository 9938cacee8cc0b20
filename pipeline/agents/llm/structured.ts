import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { z } from "zod";
import { FoundryError } from "../../core/errors.js";
import { structuredCall, type StructuredCallOptions } from "../../llm/structured-output.js";

/** Settings every llm strategy shares. */
export interface LlmStrategyOptions {
  /**
   * The role's chat model: from the LLM runtime (queue, one retry budget, cache and accounting
   * included; `forItem` charges a call to the task it works on) or, in tests, a plain model.
   */
  model: StructuredCallOptions<z.ZodType>["model"] & { forItem?(change: { item: string }): StructuredCallOptions<z.ZodType>["model"] };
  /** Ask with the provider's own structured output (config `structured_output: native`, the default). */
  native?: boolean;
  /** Plain models only: attempts of one structured answer (default 3). */
  maxAttempts?: number;
  /** Plain models only: time bound of one call in ms. */
  timeoutMs?: number;
}

/** The role's model charged to `item` (the task id), so its failures and tokens name the task. */
export function modelForItem(opts: LlmStrategyOptions, item: string): StructuredCallOptions<z.ZodType>["model"] {
  return typeof opts.model.forItem === "function" ? opts.model.forItem({ item }) : opts.model;
}

/**
 * Ask the role's model for one structured answer about `item`. A failure is a FoundryError: the
 * runtime's own (LLM_RATE_LIMIT, LLM_TIMEOUT, LLM_INVALID_ANSWER, … naming model, stage, task and
 * attempts) or, for a plain model, LLM_INVALID_ANSWER with the reason.
 */
export async function askModel<T extends z.ZodType>(role: string, opts: LlmStrategyOptions, schema: T, system: string, user: string, item: string): Promise<z.infer<T>> {
  const r = await structuredCall({
    model: modelForItem(opts, item),
    schema,
    messages: [new SystemMessage(system), new HumanMessage(user)],
    name: role,
    native: opts.native ?? false,
    ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  if (r.ok) return r.value as z.infer<T>;
  if (r.error.failure) throw r.error.failure;
  throw new FoundryError("LLM_INVALID_ANSWER", `${role} failed for item ${item} after ${r.attempts} attempt(s): invalid_answer (${r.error.kind}): ${r.error.message}`, {}, { role, item, kind: r.error.kind, attempts: r.attempts });
}
