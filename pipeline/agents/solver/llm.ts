import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { Task } from "../../schemas/index.js";
import type { DomainContext, SolveResult, Solver } from "../types.js";
import { applyOverlay } from "../../world/build-state.js";
import { Episode } from "../../world/episode.js";
import { ScriptedCustomer } from "../../world/customer-sim.js";
import { agentToolSpecs, type ToolSpec } from "../../world/standard-tools.js";
import { compileWorld } from "../../world/compile-world.js";
import { SOLVER_PROMPT } from "./prompt.js";

/** Tools of the conversation itself, beside the world's. */
const DIALOGUE_TOOLS: ToolSpec[] = [
  { name: "ask_customer", description: "Say something to the customer and get their answer.", parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false } },
  { name: "request_approval", description: "Ask the customer to approve a proposal, by its id.", parameters: { type: "object", properties: { proposal_id: { type: "string" } }, required: ["proposal_id"], additionalProperties: false } },
  { name: "finish", description: "End the conversation: the request is complete (or cannot be done).", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"], additionalProperties: false } },
];

export interface LlmSolverOptions {
  /** A chat model that supports tool calling. */
  model: Pick<BaseChatModel, "bindTools" | "invoke">;
}

/**
 * The solver's llm strategy: a tool-calling agent that works the task through the same tools an
 * evaluated agent gets, with the scripted customer answering. Its trace becomes the golden trace only
 * if it then passes the verification gates like any other.
 */
export class LlmSolver implements Solver {
  readonly #model: LlmSolverOptions["model"];
  constructor(opts: LlmSolverOptions) {
    this.#model = opts.model;
  }

  async solve(ctx: DomainContext, task: Task): Promise<SolveResult> {
    const initial = task.initial_state.length > 0 ? applyOverlay(ctx.base, ctx.world, task.initial_state, `task ${task.id}`) : ctx.base;
    const episode = Episode.open(initial, ctx.world, { task, documents: ctx.documents, role: "golden", label: "llm", seed: ctx.card.generation.seed });
    try {
      const customer = new ScriptedCustomer(task, episode);
      customer.open();
      const tools = [...agentToolSpecs(compileWorld(ctx.world)), ...DIALOGUE_TOOLS];
      const bound = this.#model.bindTools!(tools.map((t) => ({ type: "function" as const, function: t })));
      const messages: BaseMessage[] = [new SystemMessage(SOLVER_PROMPT), new HumanMessage(`Date: ${task.as_of}. Customer ${task.customer_id} says: ${task.scenario.opening_request}`)];
      for (let turn = 0; turn < task.max_turns; turn++) {
        const reply = (await bound.invoke(messages)) as AIMessage;
        messages.push(reply);
        const calls = reply.tool_calls ?? [];
        if (calls.length === 0) return { ok: false, reason: `the model stopped without calling finish after ${turn + 1} turn(s)` };
        for (const call of calls) {
          if (call.name === "finish") return { ok: true, trace: episode.finish() };
          messages.push(new ToolMessage({ tool_call_id: call.id ?? `${turn}-${call.name}`, content: JSON.stringify(this.#run(episode, customer, call.name, call.args as Record<string, unknown>)) }));
        }
      }
      return { ok: false, reason: `no finish within ${task.max_turns} turns` };
    } finally {
      episode.close();
    }
  }

  #run(episode: Episode, customer: ScriptedCustomer, name: string, args: Record<string, unknown>): unknown {
    if (name === "ask_customer") return { customer: customer.answer(String(args.message ?? "")).reply.text };
    if (name === "request_approval") {
      const r = customer.approve(String(args.proposal_id ?? ""));
      return r.outcome ? { approved: r.outcome.status === "executed", result: r.outcome.result } : { approved: false, customer: r.reply?.text };
    }
    const outcome = episode.invoke({ name, args, actor: "agent" });
    if (outcome.status !== "executed") return { status: outcome.status, error: outcome.result, reason: outcome.reason };
    return outcome.proposal_id ? { proposal_id: outcome.proposal_id, result: outcome.result } : outcome.result;
  }
}
