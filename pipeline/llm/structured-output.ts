import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import { FoundryError } from "../core/errors.js";
import { jsonCandidate, messageText, readStructuredAnswer, REFUSAL_MARKER, stripReasoning } from "./answer-check.js";
import { FAILURE_CODES, InvalidAnswerError, type FailureClass } from "./classify-error.js";
import type { StructuredSpec } from "./llm-request.js";

export { jsonCandidate, messageText, stripReasoning };

/** Why a structured call gave up: what the answer was wrong with, or the failure class of the call. */
export type StructuredFailure = "refusal" | "no_json" | "malformed_json" | "schema" | "model_error" | FailureClass["kind"];

/** A model the runtime serves (RuntimeChatModel): it checks and retries structured answers itself. */
interface RuntimeStructured {
  withStructured(spec: StructuredSpec): Pick<BaseChatModel, "invoke">;
}

export interface StructuredCallOptions<T extends z.ZodType> {
  /** A LangChain chat model; a RuntimeChatModel gets the runtime's single retry loop. */
  model: Pick<BaseChatModel, "invoke"> & Partial<Pick<BaseChatModel, "withStructuredOutput">> & Partial<RuntimeStructured>;
  /** What the answer must satisfy; `.describe()` texts reach the model through the JSON Schema. */
  schema: T;
  /** The conversation so far (system prompt, the task). */
  messages: readonly BaseMessage[];
  /**
   * Plain models only: calls at most (default 3), each failure shown to the model. A runtime model
   * has one budget for every kind of failure (`max_retries` + 1 requests); giving it this is a RangeError.
   */
  maxAttempts?: number;
  /** Plain models only: time bound of one call in ms (default 60000). A runtime model is bounded by `timeout_ms`; giving it this is a RangeError. */
  timeoutMs?: number;
  /** Name of the call: the JSON Schema's / output tool's name and the prefix of messages (default `answer`). */
  name?: string;
  /** true: the provider's structured output (withStructuredOutput: JSON schema or a tool); false (default): prompt only. */
  native?: boolean;
  /** Append the schema as JSON Schema to the conversation (default: when not native). */
  includeSchema?: boolean;
}

export type StructuredResult<T> =
  | { ok: true; value: T; attempts?: number }
  | { ok: false; attempts: number; error: { kind: StructuredFailure; message: string; code?: string; failure?: FoundryError } };

class CallTimeout extends Error {}

const KIND_OF_CODE = new Map(Object.entries(FAILURE_CODES).map(([kind, code]) => [code, kind as FailureClass["kind"]]));

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

/** The instruction that carries the schema when the provider's own mechanism is not used. */
export function schemaNote<T extends z.ZodType>(schema: T): string {
  const refuse = `If you must not answer, reply with one line \`${REFUSAL_MARKER} <reason>\` instead.`;
  try {
    return `Answer with one JSON object and nothing else. It must satisfy this JSON Schema:\n\`\`\`json\n${JSON.stringify(z.toJSONSchema(schema, { io: "input" }))}\n\`\`\`\n${refuse}`;
  } catch {
    return `Answer with one JSON object and nothing else. ${refuse}`;
  }
}

function isRuntime(m: StructuredCallOptions<z.ZodType>["model"]): m is StructuredCallOptions<z.ZodType>["model"] & RuntimeStructured {
  return typeof m.withStructured === "function";
}

/** A plain model asked natively: LangChain's withStructuredOutput, keeping the raw message to check it here. */
function nativePlain(model: StructuredCallOptions<z.ZodType>["model"], schema: z.ZodType, name: string): Pick<BaseChatModel, "invoke"> {
  if (typeof model.withStructuredOutput !== "function") throw new FoundryError("LLM_NO_STRUCTURED_OUTPUT", `${name}: the model has no native structured output: use prompt-only output`, { path: "structured_output" }, "native");
  const inner = model.withStructuredOutput(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>, { name, includeRaw: true });
  return { invoke: async (messages: BaseMessage[], options?: unknown) => ((await inner.invoke(messages, options as never)) as { raw: BaseMessage }).raw } as Pick<BaseChatModel, "invoke">;
}

/**
 * Ask a chat model for a JSON answer checked by a zod schema. Reasoning blocks are stripped; a
 * refusal is only the provider's refusal field or the `REFUSE:` marker. With a runtime model the
 * answer is checked inside the runtime's one retry loop (one `max_retries` budget for 429s,
 * timeouts and bad answers alike) and a final failure is reported with its class. With a plain
 * model, a malformed or invalid answer is shown back with its error, at most `maxAttempts` calls.
 */
export async function structuredCall<T extends z.ZodType>(opts: StructuredCallOptions<T>): Promise<StructuredResult<z.infer<T>>> {
  const name = opts.name ?? "answer";
  const native = opts.native ?? false;
  const messages: BaseMessage[] = [...opts.messages];
  if (opts.includeSchema ?? !native) messages.push(new HumanMessage(schemaNote(opts.schema)));
  if (isRuntime(opts.model)) {
    // A second budget here is what made a hang cost (max_retries + 1)² requests.
    if (opts.maxAttempts !== undefined || opts.timeoutMs !== undefined) throw new RangeError("a runtime model takes its retries and timeout from the configuration (max_retries, timeout_ms): do not pass maxAttempts or timeoutMs");
    const bound = opts.model.withStructured({ schema: opts.schema, name, native });
    try {
      return { ok: true, value: readStructuredAnswer(await bound.invoke(messages), opts.schema, name) as z.infer<T> };
    } catch (e) {
      if (!FoundryError.is(e)) throw e;
      const v = (e.value ?? {}) as { attempts?: number };
      return { ok: false, attempts: v.attempts ?? 0, error: { kind: KIND_OF_CODE.get(e.code) ?? "model_error", message: e.message, code: e.code, failure: e } };
    }
  }
  const maxAttempts = opts.maxAttempts ?? 3;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`Expected \`maxAttempts\` to be a whole number from 1 and up, got \`${maxAttempts}\``);
  if (!(timeoutMs > 0)) throw new RangeError(`Expected \`timeoutMs\` to be a number above 0, got \`${timeoutMs}\``);
  const model = native ? nativePlain(opts.model, opts.schema, name) : opts.model;
  let last: { kind: StructuredFailure; message: string } = { kind: "model_error", message: "no attempt made" };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    let reply: BaseMessage;
    try {
      reply = await invokeWithin(model, messages, timeoutMs);
    } catch (e) {
      if (e instanceof CallTimeout) {
        last = { kind: "timeout", message: `${name}: ${e.message}` };
        continue;
      }
      return { ok: false, attempts: attempt, error: { kind: "model_error", message: `${name}: ${(e as Error).message}` } };
    }
    try {
      return { ok: true, value: readStructuredAnswer(reply, opts.schema, name) as z.infer<T>, attempts: attempt };
    } catch (e) {
      if (!(e instanceof InvalidAnswerError)) throw e;
      last = { kind: e.reason, message: e.message };
      if (e.feedback === null) return { ok: false, attempts: attempt, error: last };
      messages.push(new AIMessage(messageText(reply)), new HumanMessage(e.feedback));
    }
  }
  return { ok: false, attempts: maxAttempts, error: last };
}
