import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { messageText } from "./answer-check.js";

/** A tool offered to the model: name, description and JSON Schema of its arguments. */
export interface LoopTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One tool call the loop hands to the executor, with the id the model gave it. */
export interface LoopToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** What a tool call gave: the content shown to the model; `done` ends the episode after this call. */
export interface LoopToolResult {
  content: unknown;
  done?: boolean;
}

/** Figures of one model turn. */
export interface LoopTurn {
  turn: number;
  tokensIn: number;
  tokensOut: number;
  toolCalls: number;
  invalidToolCalls: number;
  /** The turn had text and no tool call (the model was nudged). */
  textOnly: boolean;
}

export interface AgentLoopOptions {
  /** A chat model that can call tools (a RuntimeChatModel in the build: queue, retries, cache, accounting). */
  model: Pick<BaseChatModel, "bindTools">;
  tools: readonly LoopTool[];
  /** The conversation so far (system prompt, the opening request). */
  messages: readonly BaseMessage[];
  /** Model turns at most. */
  maxTurns: number;
  /** Times the model is told what went wrong (malformed tool arguments, a turn without a tool call) before the loop gives up. Default 2. */
  maxNudges?: number;
  /** Runs one tool call; a thrown error is shown to the model as the tool's result. */
  execute(call: LoopToolCall): LoopToolResult | Promise<LoopToolResult>;
}

export type AgentLoopOutcome = "done" | "max_turns" | "gave_up";

export interface AgentLoopResult {
  outcome: AgentLoopOutcome;
  /** Why the loop ended without `done`; null when it ended with `done`. */
  reason: string | null;
  turns: LoopTurn[];
  tokensIn: number;
  tokensOut: number;
  /** The whole conversation, tool messages included. */
  messages: BaseMessage[];
}

const TEXT_ONLY_NUDGE = "You replied without calling a tool. Work only through the tools: call the next tool you need, or finish when the request is complete.";

function toolContent(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v ?? null);
}

/**
 * The one tool-calling loop of the foundry (the llm solver, the model probes, the evaluator's
 * model agent): bind the tools, ask, run every tool call in order and answer it under its exact
 * `tool_call_id`. Malformed arguments (`invalid_tool_calls`) are answered with the parse error under
 * their own id, and a turn with text but no tool call gets a nudge; both draw on one bounded
 * budget of nudges. Tokens are counted per turn.
 */
export async function runAgentLoop(opts: AgentLoopOptions): Promise<AgentLoopResult> {
  if (typeof opts.model.bindTools !== "function") throw new TypeError("the agent loop needs a model that can call tools (bindTools)");
  const maxNudges = opts.maxNudges ?? 2;
  const bound = opts.model.bindTools(opts.tools.map((t) => ({ type: "function" as const, function: { name: t.name, description: t.description, parameters: t.parameters } })));
  const messages: BaseMessage[] = [...opts.messages];
  const turns: LoopTurn[] = [];
  let nudges = 0;
  const end = (outcome: AgentLoopOutcome, reason: string | null): AgentLoopResult => ({
    outcome,
    reason,
    turns,
    tokensIn: turns.reduce((n, t) => n + t.tokensIn, 0),
    tokensOut: turns.reduce((n, t) => n + t.tokensOut, 0),
    messages,
  });
  for (let turn = 1; turn <= opts.maxTurns; turn++) {
    const reply = (await bound.invoke(messages)) as AIMessage;
    const valid = reply.tool_calls ?? [];
    const invalid = reply.invalid_tool_calls ?? [];
    const textOnly = valid.length === 0 && invalid.length === 0;
    turns.push({ turn, tokensIn: reply.usage_metadata?.input_tokens ?? 0, tokensOut: reply.usage_metadata?.output_tokens ?? 0, toolCalls: valid.length, invalidToolCalls: invalid.length, textOnly });
    // Ids the provider did not give are minted by position, so every tool message still answers its call.
    const calls = valid.map((c, i) => ({ id: c.id ?? `call-${turn}-${i}`, name: c.name, args: (c.args ?? {}) as Record<string, unknown> }));
    const bad = invalid.map((c, i) => ({ id: c.id ?? `call-${turn}-invalid-${i}`, name: c.name ?? "unknown", raw: c.args ?? "", error: c.error ?? "the arguments are not valid JSON" }));
    // The assistant turn as it goes back to the provider: every call, malformed ones with empty
    // arguments, so each has a tool message under its own id (the protocol requires one per call).
    messages.push(new AIMessage({ content: reply.content, tool_calls: [...calls, ...bad.map((b) => ({ id: b.id, name: b.name, args: {} }))], ...(reply.id ? { id: reply.id } : {}) }));
    if (textOnly) {
      if (++nudges > maxNudges) return end("gave_up", `the model answered without calling a tool ${nudges} time(s): ${messageText(reply).slice(0, 200)}`);
      messages.push(new HumanMessage(TEXT_ONLY_NUDGE));
      continue;
    }
    for (const call of calls) {
      let result: LoopToolResult;
      try {
        result = await opts.execute(call);
      } catch (e) {
        result = { content: { error: (e as Error).message } };
      }
      messages.push(new ToolMessage({ tool_call_id: call.id, name: call.name, content: toolContent(result.content) }));
      if (result.done) return end("done", null);
    }
    if (bad.length > 0) {
      if (++nudges > maxNudges) return end("gave_up", `the model sent malformed tool arguments ${nudges} time(s): ${bad[0]?.error}`);
      for (const b of bad) {
        messages.push(new ToolMessage({ tool_call_id: b.id, name: b.name, status: "error", content: `Error: the arguments of ${b.name} are not valid JSON (${b.error}): ${String(b.raw).slice(0, 200)}. Call the tool again with valid JSON arguments.` }));
      }
    }
  }
  return end("max_turns", `no finish within ${opts.maxTurns} turns`);
}
