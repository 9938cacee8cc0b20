import type { AIMessage, BaseMessageLike } from "@langchain/core/messages";
import type { z } from "zod";
import type { AgentRole } from "../core/config.js";

/** Who is calling and what for: the accounting buckets a call is charged to. */
export interface CallSite {
  role: AgentRole;
  /** Pipeline stage, e.g. `extract-sops`, `design-tasks`. */
  stage: string;
  /** Item the call works on (task id, document path…); optional. */
  item?: string;
}

/**
 * A structured answer the runtime checks inside its one retry loop: an answer that does not parse
 * or fit `schema` is shown its error and retried within the same `max_retries` budget as a 429.
 */
export interface StructuredSpec {
  schema: z.ZodType;
  /** Name of the answer (the JSON Schema's name / the output tool's name), also used in messages. */
  name: string;
  /** true: the provider's own mechanism (LangChain `withStructuredOutput`: JSON schema or a tool); false: prompt only. */
  native: boolean;
}

/** What the caller fixes for every call of a bound chat model. */
export interface ModelBinding extends CallSite {
  /** Output schema (zod or JSON Schema): part of the cache key, so a schema change never replays an old answer. */
  schemaForKey?: unknown;
  /** Separates otherwise identical requests that need independent answers (e.g. `run-2` of k). */
  variant?: string;
  /** false: skip the response cache for these calls. Default true. */
  cache?: boolean;
  /** Ask for a structured answer checked (and retried) inside the runtime. */
  structured?: StructuredSpec;
}

/** One model call through the runtime. */
export interface LlmRequest extends ModelBinding {
  messages: readonly BaseMessageLike[];
  /** Tools offered to the model (LangChain tools, `{ name, description, schema }` specs, OpenAI tool objects). */
  tools?: readonly unknown[];
  /** Options bound with the tools or otherwise changing the answer: `tool_choice`, `response_format`, `stop`… */
  toolOptions?: Record<string, unknown>;
  /** Cancels the call (and its retries) from outside. */
  signal?: AbortSignal;
}

/** The one method everything model-backed calls. */
export interface LlmInvoker {
  invoke(request: LlmRequest): Promise<AIMessage>;
}
