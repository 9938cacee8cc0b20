import { z } from "zod";

const Json = z.unknown();

export const EVENT_KINDS = [
  "tool_call",
  "proposal",
  "approval",
  "customer_message",
  "agent_message",
  "customer_action",
  "scheduled_event",
  "wait",
  "fault",
] as const;
export const EventKind = z
  .enum(EVENT_KINDS)
  .describe(
    "tool_call: an agent operation; proposal: an operation that records terms for approval; approval: an approval of a proposal; customer_message / agent_message: dialogue; customer_action: a customer-side operation; scheduled_event: a world event firing; wait: the clock advanced; fault: an injected fault that replaced a call.",
  );

export const EVENT_STATUSES = ["executed", "rejected", "errored", "faulted"] as const;
export const EventStatus = z
  .enum(EVENT_STATUSES)
  .describe(
    "executed: the call ran and its effects (if any) are committed; rejected: a precondition failed, no side effect; errored: bad arguments or unknown tool, no side effect; faulted: the fault layer interfered (explicit: nothing ran; implicit: it ran and the response was degraded).",
  );

export const RowChange = z
  .object({
    table: z.string().describe("Table of the row."),
    key: z.union([z.string(), z.number()]).describe("Primary-key value of the row."),
    before: z.record(z.string(), Json).nullable().describe("Row before the event; null for an insert."),
    after: z.record(z.string(), Json).nullable().describe("Row after the event; null for a delete."),
  })
  .strict();
export type RowChange = z.infer<typeof RowChange>;

export const FaultRecord = z
  .object({
    mode: z.enum(["explicit", "implicit"]).describe("explicit: an error, nothing ran; implicit: it ran and the response was degraded."),
    type: z.enum(["timeout", "http_500", "connection_refused", "truncated_list", "dropped_field", "emptied_value", "stale_value"]).describe("The fault injected."),
    detail: z.string().describe("What exactly was done, e.g. `kept 2 of 7 rows`, `dropped field balance`."),
    fault_event: z.number().int().min(0).describe("Which fault event (0-based) of the episode's schedule this belongs to."),
  })
  .strict();
export type FaultRecord = z.infer<typeof FaultRecord>;

export const TraceEvent = z
  .object({
    index: z.number().int().min(1).describe("Position in the trace, 1-based (s0 is the initial state)."),
    time: z.number().int().min(0).describe("Logical minute at which the event happened."),
    kind: EventKind,
    actor: z.enum(["agent", "customer", "system"]).describe("Who caused the event."),
    name: z.string().describe("Operation, tool or event id; `message` for dialogue."),
    args: z.record(z.string(), Json).default({}).describe("Arguments as sent (after parsing, when they parsed)."),
    status: EventStatus,
    result: Json.optional().describe("What the caller saw (after any fault degradation)."),
    reason: z.string().optional().describe("Why a call was rejected or errored, naming the precondition or field."),
    text: z.string().optional().describe("Message text for dialogue events."),
    changes: z.array(RowChange).default([]).describe("Rows the event changed (before/after); empty when nothing changed."),
    proposal_id: z.string().optional().describe("Proposal recorded, approved or consumed by this event."),
    facts: z.array(z.string()).default([]).describe("Customer private-fact ids disclosed by this event."),
    fault: FaultRecord.optional().describe("The injected fault, for faulted events."),
    state_hash: z.string().optional().describe("Hash of the world state after the event (s_i)."),
    simulated: z.literal(true).optional().describe("Simulated evaluation: the environment simulator (a language model) answered this call from the task's environment configuration; the world runtime did not run it."),
    rendered: z.string().optional().describe("Hybrid evaluation: the response text the environment simulator rendered for the agent from `result` (the runtime's own answer, which the checks read)."),
  })
  .strict();
export type TraceEvent = z.infer<typeof TraceEvent>;

export const Trace = z
  .object({
    task: z.string().describe("Task id."),
    role: z.enum(["golden", "alternative", "violation", "probe", "agent"]).describe("What produced the trace."),
    label: z.string().default("").describe("Variant, mutation operator, probe or agent name."),
    condition: z.enum(["E0", "E1", "E2", "E3"]).default("E0").describe("Fault condition the trace ran under."),
    seed: z.number().int().describe("Seed of the episode."),
    initial_state_hash: z.string().describe("sha256 of the serialized initial database (s0)."),
    events: z.array(TraceEvent).describe("e1 … eT in order."),
    final_state_hash: z.string().describe("Hash of the world state after the last event (s_T)."),
    clock_end: z.number().int().min(0).describe("Logical minute at the end of the episode."),
  })
  .strict()
  .describe("τ = (s0, e1, s1, …, eT, sT): everything that happened in one episode.");
export type Trace = z.infer<typeof Trace>;
