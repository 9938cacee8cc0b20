import type { RoleUsage } from "../../schemas/evaluation-result.js";
import type { ToolSpec } from "../../world/standard-tools.js";
import type { EpisodeAction, ActionStep } from "../../../validation/episode-actions.js";

/**
 * What an agent sees of an episode (session.ts implements it): the opening request, the business
 * date and domain title, the tools offered, and one entry point to call them. Never the task's
 * checks, golden trace, reference plan, scenario, private facts or hidden columns.
 */
export interface AgentSession {
  /** The customer's opening request. */
  readonly opening: string;
  /** Business date of the episode (YYYY-MM-DD). */
  readonly businessDate: string;
  /** Title of the domain (its card's `title`). */
  readonly domainTitle: string;
  /** The tools offered (operations or discovery tools, standard tools, `send_message`, `finish`). */
  readonly tools: readonly ToolSpec[];
  /**
   * Call one offered tool. Misuse (unknown tool, bad arguments, writes through the query tool…)
   * comes back as a tool error the agent reads; nothing throws for what an agent can do wrong.
   * After `finish` or a bound, every call answers that the episode is over.
   */
  call(name: string, args: unknown): Promise<SessionReply>;
  /**
   * Carry out one episode action (the form scripted agents — oracle, replay, probes — act in),
   * checked against the same offered tools and bounds, answered as `call` would answer it (in
   * simulated mode a business call or wait by the simulator). Null when the episode is already over.
   */
  act(action: EpisodeAction): Promise<ActionStep | null>;
  /** Documents given up front (the gold-docs ablation); empty otherwise. */
  readonly givenDocuments: readonly import("../../world/documents-tool.js").KnowledgeDocument[];
  /** Bound on turns (a model agent's loop runs at most this many). */
  readonly maxTurns: number;
  /** Whether the episode is over (finished, or a bound was reached). */
  readonly over: boolean;
  /** Count a turn (a model turn, or one action of a scripted agent) against `max_turns`. */
  turn(): void;
}

/** What a tool call gave the agent. */
export interface SessionReply {
  /** What the agent reads (a tool result, a customer's reply, or `{ error: { code, message } }`). */
  content: unknown;
  /** The episode is over after this call (finish, or a bound). */
  done: boolean;
}

/** How an agent's run ended, as the agent saw it. */
export interface AgentRun {
  /** `gave_up`: the agent stopped without finishing (a scripted agent ran out of actions counts as finished). */
  end: "finished" | "gave_up";
  /** Tokens and cost of the agent's model calls; null for a scripted agent. */
  usage: RoleUsage | null;
}

/** What an agent is built from for one episode. Only the oracle's factory reads `golden`. */
export interface AgentInput {
  /** The world as an agent may see it (agents/visible-world.ts: no hidden column, precondition, effect, row or event). */
  world: import("../../schemas/index.js").WorldModel;
  /** The task's golden trace: the oracle's script, given to no other agent. */
  golden: import("../../schemas/index.js").Trace;
  /** The professional role the agent plays (the domain card's `role`). */
  role: string;
  /** Task id and episode seed (a model agent's cache variant). */
  task: string;
  seed: number;
}

/** Builds the agent of one episode. */
export interface AgentFactory {
  readonly spec: string;
  /** Whether it works with an async (llm) customer. */
  readonly asyncCustomer: boolean;
  /** Tasks the agent can work at all (a replay file holds one task's trace); null: every task. */
  readonly tasks: readonly string[] | null;
  create(input: AgentInput): Agent;
  /**
   * The agent of a simulated-only task's episode, which has no world and no golden trace: only
   * agents that need neither have it (a model, noop); absent, such tasks are not run for this agent.
   */
  createWorldless?(input: Pick<AgentInput, "role" | "task" | "seed">): Agent;
}

/** One agent: one spec, one way to work an episode through its session. */
export interface Agent {
  /** The spec as given (`oracle`, `probe:competent`, `openai:gpt-4.1`, `replay:FILE`…). */
  readonly spec: string;
  /** Whether the agent can work with a customer whose answers are async (an llm customer). */
  readonly asyncCustomer: boolean;
  /** Work one episode. A provider failure after its retries throws an AgentFailure. */
  run(session: AgentSession): Promise<AgentRun>;
}

/** A failure that is not the agent's fault as a contestant (its provider failed after retries): the episode is `errored`. */
export class AgentFailure extends Error {
  constructor(
    readonly errorClass: string,
    message: string,
  ) {
    super(message);
    this.name = "AgentFailure";
  }
}
