import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { z } from "zod";
import { FoundryError } from "../../core/errors.js";
import { structuredCall } from "../../llm/structured-output.js";

/** Settings every llm strategy shares. */
export interface LlmStrategyOptions {
  /** The role's chat model (from the LLM runtime: queue, retries, cache and accounting included). */
  model: Pick<BaseChatModel, "invoke">;
  /** Attempts of one structured answer, each failure shown to the model (default 3). */
  maxAttempts?: number;
  /** Time bound of one model call in ms (default 120000). */
  timeoutMs?: number;
}

/**
 * Ask the role's model for one structured answer; a malformed or invalid answer is shown its error
 * and retried within the bound, then reported as a FoundryError naming the role and the reason.
 */
export async function askModel<T extends z.ZodType>(role: string, opts: LlmStrategyOptions, schema: T, system: string, user: string): Promise<z.infer<T>> {
  const r = await structuredCall({ model: opts.model, schema, messages: [new SystemMessage(system), new HumanMessage(user)], maxAttempts: opts.maxAttempts ?? 3, timeoutMs: opts.timeoutMs ?? 120_000, name: role });
  if (!r.ok) throw new FoundryError("LLM_ANSWER_INVALID", `${role}: no valid answer after ${r.attempts} attempt(s) (${r.error.kind}): ${r.error.message}`);
  return r.value as z.infer<T>;
}
