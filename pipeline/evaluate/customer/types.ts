import type { Task } from "../../schemas/index.js";
import type { RoleUsage } from "../../schemas/evaluation-result.js";
import type { Episode } from "../../world/episode.js";
import type { ToolOutcome } from "../../world/types.js";

/**
 * The customer simulator (role `user-sim`) as the evaluator drives it. Every method records what it
 * says and does through the episode (`episode.say`, `episode.invoke` with actor `customer`), so the
 * transcript is in the trace and the audit (audit-transcript.ts) can read it. Every method may be
 * async: an llm customer answers through a model.
 */
export interface Customer {
  /** Spec as given on the command line: `deterministic` or `provider:model`. */
  readonly spec: string;
  /** Record the customer's opening message; returns its text. */
  open(): Promise<string>;
  /**
   * The agent says `text` to the customer. Records the agent's line, then the customer's reply (with
   * the private-fact ids it discloses) and any customer-side operation the agent asked for.
   * Returns the reply text the agent reads.
   */
  answer(text: string): Promise<CustomerReply>;
  /**
   * The agent asks the customer to approve proposal `proposalId` (the action form of an approval
   * request: probes and the oracle use it; a model agent asks in words through `answer`). Records
   * the request, then the approval (a customer-side operation) or a declining reply.
   */
  approve(proposalId: string): Promise<ApprovalReply>;
  /** Tokens and cost of the customer's model calls so far; null for a scripted customer. */
  usage(): RoleUsage | null;
}

/** The customer's answer to a message. */
export interface CustomerReply {
  /** What the customer said back ("" when it said nothing). */
  text: string;
  /** Private-fact ids the reply disclosed. */
  facts: string[];
  /** A customer-side operation the message led to (an approval asked for in words), as the agent reads it. */
  action?: { proposal_id: string; status: string; approved: boolean; result: unknown };
}

/** The customer's answer to an approval request. */
export interface ApprovalReply {
  /** Outcome of the customer-side approval operation, or null when the customer declined in words. */
  outcome: ToolOutcome | null;
  /** The declining (or other) reply, or null when it approved without words. */
  text: string | null;
}

/** What a customer is built from for one episode: the task (its scenario) and the live episode. */
export interface CustomerInput {
  task: Task;
  episode: Episode;
  /** Episode seed (an llm customer samples with it where the provider allows). */
  seed: number;
}

/** Builds the customer of one episode. */
export type CustomerFactory = (input: CustomerInput) => Customer;

/**
 * A failure of the simulator that is not the agent's doing (a provider failing after its retries):
 * the episode becomes `errored` with this class and message, and is left out of every rate.
 */
export class CustomerFailure extends Error {
  constructor(
    readonly errorClass: string,
    message: string,
  ) {
    super(message);
    this.name = "CustomerFailure";
  }
}
