import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { LlmInvoker, ModelBinding, StructuredSpec } from "./llm-request.js";

// Call options that change the answer. Anything else a graph passes down (callbacks, thread ids,
// run names) must stay out of the cache key, or every run would miss.
const OUTPUT_OPTIONS = [
  "stop", "tool_choice", "response_format", "strict", "parallel_tool_calls", "max_tokens", "maxTokens",
  "seed", "reasoning", "reasoning_effort", "reasoningEffort", "outputConfig", "responseSchema", "format",
] as const;

/**
 * A LangChain chat model whose every call goes through the runtime (cache → provider queue →
 * retry → timeout → model) and is charged to one role, stage and item. Hand it to `createAgent`,
 * call `.bindTools()` or `.withStructuredOutput()` on it, or `.invoke(messages)` it directly.
 */
export class RuntimeChatModel extends BaseChatModel<BaseChatModelCallOptions, AIMessageChunk> {
  readonly binding: ModelBinding;
  readonly boundTools: readonly BindToolsInput[];
  readonly boundOptions: Record<string, unknown>;
  readonly #runtime: LlmInvoker;

  constructor(runtime: LlmInvoker, binding: ModelBinding, tools: readonly BindToolsInput[] = [], options: Record<string, unknown> = {}) {
    super({});
    this.#runtime = runtime;
    this.binding = binding;
    this.boundTools = tools;
    this.boundOptions = options;
  }

  _llmType(): string {
    return "foundry-runtime";
  }

  /** A copy with more tools (and tool options such as `tool_choice`) bound; the binding is kept. */
  override bindTools(tools: BindToolsInput[], kwargs?: Partial<BaseChatModelCallOptions> & Record<string, unknown>): RuntimeChatModel {
    return new RuntimeChatModel(this.#runtime, this.binding, [...this.boundTools, ...tools], { ...this.boundOptions, ...(kwargs ?? {}) });
  }

  /**
   * A copy whose answers must be `spec`'s structured answer: the runtime asks the provider natively
   * (or by prompt only) and checks every answer inside its one retry loop, so a bad answer is shown
   * its error and retried within `max_retries` like any other failed attempt.
   */
  withStructured(spec: StructuredSpec): RuntimeChatModel {
    return new RuntimeChatModel(this.#runtime, { ...this.binding, structured: spec }, this.boundTools, this.boundOptions);
  }

  /** A copy charged to another stage or item, or sampled apart by `variant` (run 2 of k); same role, tools and options. */
  forItem(change: { stage?: string; item?: string; variant?: string }): RuntimeChatModel {
    return new RuntimeChatModel(this.#runtime, { ...this.binding, ...change }, this.boundTools, this.boundOptions);
  }

  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const toolOptions: Record<string, unknown> = { ...this.boundOptions };
    for (const k of OUTPUT_OPTIONS) {
      const v = (options as Record<string, unknown>)[k];
      if (v !== undefined) toolOptions[k] = v;
    }
    const answer = await this.#runtime.invoke({
      ...this.binding,
      messages,
      ...(this.boundTools.length ? { tools: this.boundTools } : {}),
      ...(Object.keys(toolOptions).length ? { toolOptions } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // A chunk, not a plain AIMessage: LangChain's own structured-output parser only accepts chunks.
    const fields: ConstructorParameters<typeof AIMessageChunk>[0] & object = {
      content: answer.content,
      tool_calls: answer.tool_calls ?? [],
      invalid_tool_calls: answer.invalid_tool_calls ?? [],
      response_metadata: answer.response_metadata,
      additional_kwargs: answer.additional_kwargs,
    };
    if (answer.usage_metadata) fields.usage_metadata = answer.usage_metadata;
    if (answer.id) fields.id = answer.id;
    const message = new AIMessageChunk(fields);
    // A chunk rebuilds its tool calls from tool_call_chunks and drops invalid_tool_calls given to
    // its constructor; set them afterwards, so a malformed call stays malformed (never `args: {}`).
    message.invalid_tool_calls = answer.invalid_tool_calls ?? [];
    return { generations: [{ text: message.text, message }] };
  }
}
