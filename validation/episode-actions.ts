import type { Task, Trace, TraceEvent } from "../pipeline/schemas/index.js";
import type { DomainContext } from "../pipeline/world/domain-context.js";
import { EpisodeDriver, type ActionStep, type RunMeta } from "./episode-driver.js";

export { EpisodeDriver, type ActionStep, type RunMeta } from "./episode-driver.js";

/**
 * What an agent (or the customer, unprompted) does in an episode. Replies of the scripted customer
 * are not actions: they follow from `ask` and `approve`. Scheduled events are not actions either:
 * waits fire them.
 */
export type EpisodeAction =
  /** The customer's opening message. */
  | { type: "open" }
  /** An agent tool or operation call. */
  | { type: "call"; name: string; args: Record<string, unknown> }
  /** The agent says something the customer answers (disclosing facts whose topics it mentions). */
  | { type: "ask"; text: string }
  /** The agent says something that needs no answer. */
  | { type: "say"; text: string }
  /**
   * The agent asks the customer to approve a proposal: the newest one made by `proposal_of` in this
   * run (ids shift when actions move), else the literal `proposal_id`.
   */
  | { type: "approve"; proposal_of: string | null; proposal_id: string | null }
  /** A customer-side operation the customer performs on its own. */
  | { type: "customer_call"; name: string; args: Record<string, unknown> }
  /** A customer message not prompted by the agent. */
  | { type: "customer_say"; text: string; facts: string[] }
  | { type: "wait"; minutes: number };

/** An action with the indexes (1-based) of the trace events it produced. */
export interface ParsedAction {
  action: EpisodeAction;
  events: number[];
}

/** The text ScriptedCustomer.approve says on the agent's behalf. */
const APPROVAL_REQUEST = /^Please review and approve proposal (\S+)\.$/;

const CALL_KINDS: ReadonlySet<string> = new Set(["tool_call", "proposal", "approval", "customer_action", "fault"]);

/** Which operation made proposal `id` earlier in the trace. */
function proposer(events: readonly TraceEvent[], id: string, before: number): string | null {
  const e = events.slice(0, before).find((x) => x.kind === "proposal" && x.proposal_id === id);
  return e ? e.name : null;
}

/**
 * Turn a trace into the actions that produced it, each with its events. An agent message answered
 * by a customer message is an `ask` (a statement followed by an unprompted customer message reads
 * the same way: the trace cannot tell them apart); the scripted customer's approval request is an
 * `approve` (with the customer's words right after its approval, such as a correction of the terms);
 * scheduled events belong to the action before them.
 */
export function parseActions(trace: Trace): ParsedAction[] {
  const ev = trace.events;
  const out: ParsedAction[] = [];
  for (let i = 0; i < ev.length; i++) {
    const e = ev[i] as TraceEvent;
    const next = ev[i + 1];
    if (e.kind === "scheduled_event") {
      // A fired event belongs to the wait (or call) before it.
      out.at(-1)?.events.push(e.index);
      continue;
    }
    if (e.kind === "agent_message") {
      const m = APPROVAL_REQUEST.exec(e.text ?? "");
      if (m) {
        const id = m[1] as string;
        const answered = next && next.actor === "customer" && (next.kind === "customer_message" || (CALL_KINDS.has(next.kind) && next.args.proposal_id === id));
        const of = proposer(ev, id, i);
        const events = answered ? [e.index, next.index] : [e.index];
        if (answered) i++;
        // What the customer says right after approving (a correction of the terms it just approved)
        // is its reply to the request: approving again says it again.
        const after = ev[i + 1];
        if (answered && next.kind === "approval" && after?.kind === "customer_message" && after.actor === "customer") {
          events.push(after.index);
          i++;
        }
        out.push({ action: { type: "approve", proposal_of: of, proposal_id: id }, events });
        continue;
      }
      if (next?.kind === "customer_message") {
        out.push({ action: { type: "ask", text: e.text ?? "" }, events: [e.index, next.index] });
        i++;
        continue;
      }
      out.push({ action: { type: "say", text: e.text ?? "" }, events: [e.index] });
      continue;
    }
    if (e.kind === "customer_message") {
      const opening = out.length === 0;
      out.push({ action: opening ? { type: "open" } : { type: "customer_say", text: e.text ?? "", facts: [...e.facts] }, events: [e.index] });
      continue;
    }
    if (e.kind === "wait") {
      const minutes = e.args.minutes;
      out.push({ action: typeof minutes === "number" && e.status === "executed" ? { type: "wait", minutes } : { type: "call", name: "wait", args: { ...e.args } }, events: [e.index] });
      continue;
    }
    const args = { ...e.args };
    out.push({ action: e.actor === "customer" ? { type: "customer_call", name: e.name, args } : { type: "call", name: e.name, args }, events: [e.index] });
  }
  return out;
}

/** The actions of a trace (see parseActions). */
export function actionsOf(trace: Trace): EpisodeAction[] {
  return parseActions(trace).map((p) => p.action);
}

/** A trace and what each action recorded. */
export interface ActionsRun {
  trace: Trace;
  steps: ActionStep[];
}

/** Run actions in a fresh episode of the task (overlay applied) with the scripted customer. */
export function runActionsDetailed(ctx: DomainContext, task: Task, actions: readonly EpisodeAction[], meta: RunMeta = {}): ActionsRun {
  const driver = EpisodeDriver.open(ctx, task, meta);
  try {
    const steps = actions.map((a) => driver.do(a));
    return { trace: driver.finish(), steps };
  } finally {
    driver.close();
  }
}

/** Run actions in a fresh episode of the task and return the trace. */
export function runActions(ctx: DomainContext, task: Task, actions: readonly EpisodeAction[], meta: RunMeta = {}): Trace {
  return runActionsDetailed(ctx, task, actions, meta).trace;
}
