import { z } from "zod";
import { FoundryError, quote } from "../core/errors.js";
import { RandomStream } from "../core/random.js";

export const FAULT_CONDITIONS = ["E0", "E1", "E2", "E3"] as const;
export type FaultCondition = (typeof FAULT_CONDITIONS)[number];

/** Explicit faults: nothing executes and the agent gets an error result. */
export const EXPLICIT_FAULTS = ["timeout", "http_500", "connection_refused"] as const;
/** Implicit faults: the call executes and its response is degraded but looks normal. */
export const IMPLICIT_FAULTS = ["truncated_list", "dropped_field", "emptied_value", "stale_value"] as const;
export type ExplicitFault = (typeof EXPLICIT_FAULTS)[number];
export type ImplicitFault = (typeof IMPLICIT_FAULTS)[number];

export const PlannedFault = z
  .object({
    call: z.number().int().min(0).describe("0-based index among the agent's tool calls of the episode."),
    fault_event: z.number().int().min(0).describe("Which fault event of the plan the call belongs to."),
    mode: z.enum(["explicit", "implicit"]),
    type: z.enum([...EXPLICIT_FAULTS, ...IMPLICIT_FAULTS]).describe("Planned type; an implicit fault may fall back to another implicit type (see faults.ts)."),
  })
  .strict()
  .refine((f) => (f.mode === "explicit") === (EXPLICIT_FAULTS as readonly string[]).includes(f.type), {
    message: "`type` must be an explicit fault type when `mode` is explicit, and an implicit one otherwise",
    path: ["type"],
  });
export type PlannedFault = z.infer<typeof PlannedFault>;

export const FaultPlan = z
  .object({
    condition: z.enum(FAULT_CONDITIONS),
    seed: z.number().int(),
    events: z.number().int().min(0).describe("Fault events (outages) in the episode."),
    calls_per_event: z.number().int().min(1).describe("Consecutive agent calls one fault event affects (its duration)."),
    horizon: z.number().int().min(0).describe("Agent calls over which the fault events are spread."),
    faults: z.array(PlannedFault).describe("Affected calls, sorted by call index; empty for E0."),
  })
  .strict()
  .describe("Which agent calls of an episode are faulted, and how. Plain data: recorded beside the trace.");
export type FaultPlan = z.infer<typeof FaultPlan>;

export interface PlanFaultsOptions {
  condition: FaultCondition;
  /** Fault events per episode. Default 2. */
  events?: number;
  /** Consecutive agent calls each event affects. Default 2. */
  callsPerEvent?: number;
  seed: number;
  /** Expected agent calls in the episode (e.g. the reference plan's length). Default: 3 × events × callsPerEvent. */
  totalCallsHint?: number;
}

function wholeNumber(name: string, value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new FoundryError("FAULT_PLAN_OPTION", `Expected \`${name}\` to be a whole number from ${min} and up, got \`${quote(value)}\``, { path: name }, value);
  }
  return value;
}

/**
 * A deterministic fault plan. The horizon is cut into `events` equal segments and each event's window
 * of `callsPerEvent` consecutive calls is placed inside its own segment, so windows never overlap
 * and are spread over the episode. Positions depend only on the seed (not on the condition), so
 * E1, E2 and E3 runs of one seed fault the same calls; E3 draws explicit or implicit per event with
 * p = 0.5. Same options → identical plan.
 */
export function planFaults(options: PlanFaultsOptions): FaultPlan {
  const { condition } = options;
  if (!(FAULT_CONDITIONS as readonly string[]).includes(condition)) {
    throw new FoundryError("FAULT_PLAN_OPTION", `Expected \`condition\` to be one of ${FAULT_CONDITIONS.join(", ")}, got \`${quote(condition)}\``, { path: "condition" }, condition);
  }
  const seed = options.seed;
  if (!Number.isInteger(seed)) throw new FoundryError("FAULT_PLAN_OPTION", `Expected \`seed\` to be an integer, got \`${quote(seed)}\``, { path: "seed" }, seed);
  const events = wholeNumber("events", options.events ?? 2, 0);
  const perEvent = wholeNumber("callsPerEvent", options.callsPerEvent ?? 2, 1);
  const hint = options.totalCallsHint === undefined ? 3 * events * perEvent : wholeNumber("totalCallsHint", options.totalCallsHint, 0);
  const horizon = Math.max(hint, events * perEvent);
  const plan: FaultPlan = { condition, seed, events, calls_per_event: perEvent, horizon, faults: [] };
  if (condition === "E0" || events === 0) return plan;

  const root = new RandomStream(seed).fork("faults");
  const positions = root.fork("positions");
  const kinds = root.fork("types");
  const segment = Math.floor(horizon / events);
  for (let e = 0; e < events; e++) {
    const start = e * segment + positions.int(0, segment - perEvent);
    const mode = condition === "E1" ? "explicit" : condition === "E2" ? "implicit" : kinds.chance(0.5) ? "explicit" : "implicit";
    const type = mode === "explicit" ? kinds.pick(EXPLICIT_FAULTS) : kinds.pick(IMPLICIT_FAULTS);
    for (let i = 0; i < perEvent; i++) plan.faults.push({ call: start + i, fault_event: e, mode, type });
  }
  return plan;
}

/** Parses a plan read back from a file or built by hand; FoundryError FAULT_PLAN_INVALID names the field. */
export function parseFaultPlan(value: unknown): FaultPlan {
  const parsed = FaultPlan.safeParse(value);
  if (parsed.success) {
    const calls = parsed.data.faults.map((f) => f.call);
    if (new Set(calls).size === calls.length) return parsed.data;
    throw new FoundryError("FAULT_PLAN_INVALID", "fault plan lists an agent call twice", { path: "faults" }, calls);
  }
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  throw new FoundryError("FAULT_PLAN_INVALID", `fault plan: ${issue?.message ?? "invalid"}`, { path }, value);
}

/** The planned fault of agent call `call` (0-based), if any. */
export function faultForCall(plan: FaultPlan, call: number): PlannedFault | undefined {
  return plan.faults.find((f) => f.call === call);
}
