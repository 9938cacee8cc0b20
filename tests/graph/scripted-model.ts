import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/**
 * A scripted chat model for offline tests: each answer is computed by the test's script from the
 * conversation so far (no network, no model). `bindTools` returns the same model: the script
 * decides which tool calls to make.
 */
export class ScriptedModel extends BaseChatModel {
  calls = 0;
  /** The conversation each call was given. */
  readonly seen: BaseMessage[][] = [];
  readonly #script: (messages: BaseMessage[], call: number) => AIMessage;

  constructor(script: (messages: BaseMessage[], call: number) => AIMessage) {
    super({});
    this.#script = script;
  }

  _llmType(): string {
    return "scripted-test";
  }

  override bindTools(): this {
    return this;
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const message = this.#script(messages, this.calls++);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

/** The text of a message. */
export const text = (m: BaseMessage | undefined): string => (typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? ""));
