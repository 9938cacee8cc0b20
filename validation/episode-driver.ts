import type { Task, Trace, TraceEvent } from "../pipeline/schemas/index.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { Episode } from "../pipeline/world/episode.js";
import type { Isolation } from "../pipeline/world/connection.js";
import { ScriptedCustomer } from "../pipeline/world/customer-sim.js";
import type { Invoke, ToolOutcome } from "../pipeline/world/types.js";
import { initialStateFor } from "./initial-states.js";
import { changedState } from "./checks/lib/events.js";
import type { EpisodeAction } from "./episode-actions.js";

/** How a produced trace is labelled (and optionally faulted). */
export interface RunMeta {
  /** Trace role. Default `agent`. */
  role?: Trace["role"];
  /** Variant, operator or probe name. Default "". */
  label?: string;
  /** Episode seed. Default: the initial state's seed. */
  seed?: number;
  condition?: Trace["condition"];
  /** Fault layer or other wrapper around the raw invoke. Default: none. */
  wrap?: (inner: Invoke) => Invoke;
  /** How the episode's database is isolated (connection.ts). Default: `copy`. */
  isolation?: Isolation;
}

/** What one action did: the events it recorded (scheduled events it fired included). */
export interface ActionStep {
  action: EpisodeAction;
  events: TraceEvent[];
  /** Outcome of the call, wait or approval, when the action made one. */
  outcome: ToolOutcome | null;
  /** The customer's reply text, for asks, declined approvals, and a correction right after an approval. */
  reply: string | null;
}

/** The conversation side of a customer the driver can hand over to (the evaluator's Customer fits). */
export interface ConversationCustomer {
  open(): Promise<string>;
  answer(text: string): Promise<{ text: string; facts: string[] }>;
  approve(proposalId: string): Promise<{ outcome: ToolOutcome | null; text: string | null }>;
}

/** What the driver needs of a task: a full Task fits, and so does a simulated-only task's episode view (no overlay, no events). */
export type DriverTask = Pick<Task, "id" | "scenario" | "initial_state"> & { scheduled_events?: Task["scheduled_events"] };

// The id asked about when no proposal exists: the customer answers that it cannot find it.
const DECLINED = "PR-none";

/**
 * A task's episode with the scripted customer, driven one action at a time: the single way every
 * variant, mutant and probe trace is produced. Nothing here throws for what an agent can do wrong.
 */
export class EpisodeDriver {
  readonly episode: Episode;
  readonly customer: ScriptedCustomer;
  readonly task: DriverTask;

  private constructor(episode: Episode, task: DriverTask) {
    this.episode = episode;
    this.task = task;
    this.customer = new ScriptedCustomer(task, episode);
  }

  /** A fresh episode of `task` (its overlay applied) with its documents and scheduled events. */
  static open(ctx: Pick<DomainContext, "base" | "world" | "documents">, task: DriverTask, meta: RunMeta = {}): EpisodeDriver {
    const episode = Episode.open(initialStateFor(ctx, task), ctx.world, {
      task,
      documents: ctx.documents,
      role: meta.role ?? "agent",
      label: meta.label ?? "",
      ...(meta.seed !== undefined ? { seed: meta.seed } : {}),
      ...(meta.condition !== undefined ? { condition: meta.condition } : {}),
      ...(meta.wrap !== undefined ? { wrap: meta.wrap } : {}),
      ...(meta.isolation !== undefined ? { isolation: meta.isolation } : {}),
    });
    return new EpisodeDriver(episode, task);
  }

  /** Carry out one action and return what it recorded. */
  do(action: EpisodeAction): ActionStep {
    const before = this.episode.events.length;
    let outcome: ToolOutcome | null = null;
    let reply: string | null = null;
    switch (action.type) {
      case "open":
        this.customer.open();
        break;
      case "call":
        outcome = this.episode.invoke({ name: action.name, args: action.args, actor: "agent" });
        break;
      case "customer_call":
        outcome = this.episode.invoke({ name: action.name, args: action.args, actor: "customer" });
        break;
      case "ask":
        reply = this.customer.answer(action.text).reply.text ?? "";
        break;
      case "say":
        this.episode.say("agent", action.text);
        break;
      case "customer_say":
        this.episode.say("customer", action.text, action.facts);
        break;
      case "wait":
        outcome = this.episode.wait(action.minutes);
        break;
      case "approve": {
        const id = this.proposalFor(action) ?? action.proposal_id ?? DECLINED;
        const r = this.customer.approve(id);
        outcome = r.outcome;
        reply = r.reply?.text ?? null;
        break;
      }
    }
    return { action, events: this.episode.events.slice(before), outcome, reply };
  }

  /**
   * Carry out one action with `customer` (an async one, e.g. an llm customer) answering in place of
   * the scripted customer: opening, asks and approval requests go to it; every other action is `do`.
   */
  async doWith(action: EpisodeAction, customer: ConversationCustomer): Promise<ActionStep> {
    if (action.type !== "open" && action.type !== "ask" && action.type !== "approve") return this.do(action);
    const before = this.episode.events.length;
    let outcome: ToolOutcome | null = null;
    let reply: string | null = null;
    if (action.type === "open") await customer.open();
    else if (action.type === "ask") reply = (await customer.answer(action.text)).text;
    else {
      const r = await customer.approve(this.proposalFor(action) ?? action.proposal_id ?? DECLINED);
      outcome = r.outcome;
      reply = r.text;
    }
    return { action, events: this.episode.events.slice(before), outcome, reply };
  }

  /** Read-only SQL on the episode's current state (an oracle for validation, never for probes). */
  read(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.episode.read(sql, params);
  }

  finish(): Trace {
    return this.episode.finish();
  }

  close(): void {
    this.episode.close();
  }

  /**
   * The newest pending proposal made by `proposal_of` in this episode (ids shift when actions move).
   * A proposal or approval whose response a silent fault degraded still ran (`changedState`): under
   * fault conditions it counts as made, or the approval would name an older proposal.
   */
  private proposalFor(action: Extract<EpisodeAction, { type: "approve" }>): string | undefined {
    if (action.proposal_of === null) return undefined;
    const events = this.episode.events;
    const approved = new Set(events.filter((e) => e.kind === "approval" && changedState(e)).map((e) => e.proposal_id));
    const made = events.filter((e) => e.kind === "proposal" && changedState(e) && e.name === action.proposal_of && e.proposal_id !== undefined);
    const open = made.filter((e) => !approved.has(e.proposal_id));
    return (open.at(-1) ?? made.at(-1))?.proposal_id;
  }
}
