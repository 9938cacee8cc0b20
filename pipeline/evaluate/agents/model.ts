import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { runAgentLoop } from "../../llm/agent-loop.js";
import type { LlmRuntime } from "../../llm/llm-runtime.js";
import { parseModelSpec } from "../../llm/model-registry.js";
import { costOf, priceOf } from "../../llm/model-prices.js";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AgentFailure, type AgentFactory, type AgentRun, type AgentSession } from "./types.js";
import { modelFailureKind } from "./failure-class.js";
import { CustomerFailure } from "../customer/types.js";

/** The role the evaluated model's calls are charged to in the LLM runtime (the tool-calling agent role). */
export const AGENT_RUNTIME_ROLE = "solver" as const;

/** The system prompt of the evaluated model: its role, the domain, the business date, the conversation protocol. */
export function agentSystemPrompt(session: Pick<AgentSession, "domainTitle" | "businessDate">, role: string): string {
  return [
    `You are a ${role} (${session.domainTitle}). Today's business date is ${session.businessDate}.`,
    "A customer writes to you. Serve the request through the tools only:",
    "- Read the reference documents (list_reference_documents, search_documents, read_document): follow the version in force on the business date and in scope for this customer, never a superseded or out-of-scope one.",
    "- Look things up with the business tools or the read-only query_database tool.",
    "- Ask the customer with send_message for any detail only they know before you use it; never guess it.",
    "- When a step needs the customer's approval, make the proposal with the tool that proposes it, then ask the customer with send_message to approve it by its proposal id.",
    "- Use wait when something is pending. Call finish when the request is complete, or cannot be done.",
  ].join("\n");
}

/** The first user message: the customer's request, and the documents given up front (gold-docs). */
function openingMessage(session: Pick<AgentSession, "opening" | "givenDocuments">): string {
  if (session.givenDocuments.length === 0) return session.opening;
  const docs = session.givenDocuments.map((d) => `## ${d.title} (${d.id} ${d.version}, in force from ${d.effective_from})\n${d.text}`).join("\n\n");
  return `${session.opening}\n\n---\nReference documents in force for this request:\n\n${docs}`;
}

/**
 * `provider:model`: any chat model the LLM runtime resolves, on the one agent loop. The tools are
 * the session's (operations or discovery tools, standard tools, send_message, finish). A text-only
 * turn or malformed arguments are answered with what went wrong (the loop's nudges). A provider
 * failure after its retries is an AgentFailure with its class: the episode is errored, not failed.
 */
export function modelAgent(spec: string, runtime: LlmRuntime): AgentFactory {
  const ref = parseModelSpec(spec);
  // The world and golden trace are never shown to a model agent: a simulated-only task (none of either) gets the same agent.
  const create = ({ task, seed, role }: { task: string; seed: number; role: string }) => ({
    spec,
    asyncCustomer: true,
    run: async (session: AgentSession) => {
      const model = runtime.chatModel({ role: AGENT_RUNTIME_ROLE, stage: "evaluate", item: task, variant: `seed-${seed}` });
      if (!model) throw new AgentFailure("internal", `no model resolved for ${spec}`);
      return runModelAgent(model, session, role, ref ? (i, o) => costOf(priceOf(ref), i, o) : () => null);
    },
  });
  return { spec, asyncCustomer: true, tasks: null, create, createWorldless: create };
}

/**
 * The model agent's run on one session (the one agent loop): what `provider:model` agents do, and
 * what the build's solver and calibrator do on a simulated-only task. `cost` prices the tokens.
 */
export async function runModelAgent(model: Pick<BaseChatModel, "bindTools">, session: AgentSession, role: string, cost: (tokensIn: number, tokensOut: number) => number | null = () => null, extra = ""): Promise<AgentRun> {
  // Each model turn counts against the session's max_turns (the loop only binds tools and invokes).
  const counted = {
    bindTools: (tools: never) => {
      const bound = (model as { bindTools(t: never): { invoke(m: never): unknown } }).bindTools(tools);
      return { invoke: (m: unknown) => (session.turn(), bound.invoke(m as never)) };
    },
  } as unknown as Pick<BaseChatModel, "bindTools">;
  let customerFailure: CustomerFailure | null = null;
  let result;
  try {
    result = await runAgentLoop({
      model: counted,
      tools: session.tools,
      messages: [new SystemMessage(agentSystemPrompt(session, role)), new HumanMessage(`${openingMessage(session)}${extra}`)],
      maxTurns: session.maxTurns + 1,
      // Text-only turns and malformed arguments are answered every time; only the turn bound ends the episode.
      maxNudges: session.maxTurns,
      execute: async (call) => {
        try {
          return await session.call(call.name, call.args);
        } catch (e) {
          // The customer's provider failed: end the loop, and the episode errors below.
          if (e instanceof CustomerFailure) {
            customerFailure = e;
            return { content: { error: e.message }, done: true };
          }
          throw e;
        }
      },
    });
  } catch (e) {
    const kind = modelFailureKind(e);
    if (kind) throw new AgentFailure(kind, (e as Error).message);
    throw e;
  }
  if (customerFailure) throw customerFailure;
  const usage = { calls: result.turns.length, input_tokens: result.tokensIn, output_tokens: result.tokensOut, cost_usd: cost(result.tokensIn, result.tokensOut) };
  return { end: result.outcome === "gave_up" ? "gave_up" : "finished", usage };
}
