import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** A chat model that never answers (and ignores abort signals): for timeout tests. */
export class HangingModel extends BaseChatModel {
  calls = 0;

  constructor() {
    super({});
  }

  _llmType(): string {
    return "hanging";
  }

  override async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    this.calls++;
    return new Promise<ChatResult>(() => {});
  }
}
