import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { RoleUsage } from "../../schemas/evaluation-result.js";
import { FoundryError } from "../../core/errors.js";
import { runAgentLoop, type LoopToolResult } from "../../llm/agent-loop.js";
import { FAILURE_CODES } from "../../llm/classify-error.js";
import type { LlmRuntime } from "../../llm/llm-runtime.js";
import { costOf, priceOf } from "../../llm/model-prices.js";
import { factsStated } from "./audit-transcript.js";
import { agentLine, customerSystemPrompt } from "./llm-prompt.js";
import { customerTools, runCustomerTool, type TurnActions } from "./llm-tools.js";
import { CustomerFailure, type Customer, type CustomerFactory, type CustomerInput, type CustomerReply } from "./types.js";

/** How the llm customer runs; everything but the runtime has a default. */
export interface LlmCustomerOptions {
  /** The runtime whose `user-sim` role names the model (queue, retries, cache, accounting). */
  runtime: LlmRuntime;
  /** Model turns of one customer answer at most (review, act, reply). Default 6. */
  maxTurns?: number;
  /** Times the model is told it answered without a tool before the answer counts as failed. Default 2. */
  maxNudges?: number;
  /** Accounting stage of its calls. Default `evaluate`. */
  stage?: string;
}

// FoundryError code of a runtime failure → the error class an errored episode reports.
const CLASS_OF_CODE = new Map(Object.entries(FAILURE_CODES).map(([kind, code]) => [code, kind]));

/** A model failure after the runtime's retries, as the simulator failure that makes the episode `errored`. */
function simulatorFailure(e: unknown, spec: string): CustomerFailure {
  if (FoundryError.is(e) && CLASS_OF_CODE.has(e.code)) return new CustomerFailure(CLASS_OF_CODE.get(e.code) as string, `user-sim ${spec}: ${e.message}`);
  return new CustomerFailure("internal", `user-sim ${spec}: ${(e as Error).message ?? String(e)}`);
}

/**
 * The llm customer (`--user-sim provider:model`): a model plays the scenario's persona through the
 * one agent loop, on the runtime's `user-sim` role. Each agent line is one customer turn: the model
 * may review proposals and run permitted customer-side operations (one call each, the real outcome
 * shown to it; approvals only of exactly agreed terms, checked on the proposal's row) and ends the
 * turn with `reply`. The opening is the scenario's own words. The facts a reply discloses are the
 * ones its text states (the audit's rule), so the transcript audit judges the model, not its claims.
 */
export function llmCustomer(input: CustomerInput, options: LlmCustomerOptions): Customer {
  const { task, episode, seed } = input;
  const ref = options.runtime.modelFor("user-sim");
  if (!ref) throw new FoundryError("LLM_NOT_CONFIGURED", "the llm customer needs a model for the user-sim role", { path: "models.user-sim" }, "deterministic");
  const model = options.runtime.chatModel({ role: "user-sim", stage: options.stage ?? "evaluate", item: task.id, variant: `seed-${seed}` });
  if (!model) throw new FoundryError("LLM_NOT_CONFIGURED", "the llm customer needs a model for the user-sim role", { path: "models.user-sim" }, "deterministic");
  const tools = customerTools(task, episode);
  const actions = tools.slice(2);
  // Built at the first turn from the opening actually said: the evaluator says it itself under the full-disclosure ablation.
  let history: BaseMessage[] | null = null;
  const opened = (): string => episode.events.find((e) => e.kind === "customer_message" && e.actor === "customer")?.text ?? task.scenario.opening_request;
  const usage: RoleUsage = { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };
  const price = priceOf(ref);

  /** One customer turn: the model answers the agent's line; returns what it did and said. */
  const turn = async (line: string): Promise<TurnActions & { reply: string }> => {
    const done: TurnActions = { performed: [], reply: null };
    let defect: unknown = null;
    history ??= [new SystemMessage(customerSystemPrompt(task, actions, opened()))];
    const messages = [...history, new HumanMessage(agentLine(line))];
    let loop;
    try {
      loop = await runAgentLoop({
        model,
        tools,
        messages,
        maxTurns: options.maxTurns ?? 6,
        maxNudges: options.maxNudges ?? 2,
        execute: (call): LoopToolResult => {
          try {
            return runCustomerTool(task, episode, tools, call, done);
          } catch (e) {
            // A defect of the world (a statement past its bounds) is not the model's to read: it ends the turn and is rethrown.
            defect = e;
            return { content: { error: { code: "internal_error", message: (e as Error).message } }, done: true };
          }
        },
      });
    } catch (e) {
      throw simulatorFailure(e, ref.spec);
    }
    if (defect !== null) throw defect;
    usage.calls += loop.turns.length;
    usage.input_tokens += loop.tokensIn;
    usage.output_tokens += loop.tokensOut;
    const cost = costOf(price, loop.tokensIn, loop.tokensOut);
    usage.cost_usd = cost === null || usage.cost_usd === null ? null : usage.cost_usd + cost;
    if (loop.outcome !== "done" || done.reply === null) {
      throw new CustomerFailure("invalid_answer", `user-sim ${ref.spec} did not reply to the agent: ${loop.reason ?? "the turn ended without reply"}`);
    }
    history = loop.messages;
    return { ...done, reply: done.reply };
  };

  /** Record the agent's line, run the customer's turn, record its reply with the facts the text states. */
  const respond = async (text: string) => {
    episode.say("agent", text);
    const t = await turn(text);
    const facts = factsStated(task, t.reply);
    episode.say("customer", t.reply, facts);
    return { ...t, facts };
  };

  return {
    spec: ref.spec,
    open: async () => episode.say("customer", task.scenario.opening_request).text ?? "",
    answer: async (text): Promise<CustomerReply> => {
      const t = await respond(text);
      const approval = [...t.performed].reverse().find((p) => typeof p.args.proposal_id === "string" && episode.world.operations.get(p.name)?.op.approves !== undefined);
      const action = approval
        ? { proposal_id: approval.args.proposal_id as string, status: approval.outcome.status, approved: approval.outcome.status === "executed", result: approval.outcome.result ?? null }
        : undefined;
      return { text: t.reply, facts: t.facts, ...(action ? { action } : {}) };
    },
    approve: async (proposalId) => {
      const t = await respond(`Please review and approve proposal ${proposalId}.`);
      const done = [...t.performed].reverse().find((p) => p.args.proposal_id === proposalId);
      return { outcome: done?.outcome ?? null, text: t.reply };
    },
    usage: () => ({ ...usage }),
  };
}

/** The factory the customer registry uses for `provider:model` specs. */
export function llmCustomerFactory(options: LlmCustomerOptions): CustomerFactory {
  return (input) => llmCustomer(input, options);
}
