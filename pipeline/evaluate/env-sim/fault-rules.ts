import { RandomStream } from "../../core/random.js";
import { degrade } from "../../world/fault-degrade.js";
import { explicitFaultOutcome, isExplicit } from "../../world/fault-explicit.js";
import { parseFaultPlan, type FaultPlan, type ImplicitFault, type PlannedFault } from "../../world/fault-plan.js";
import type { FaultRecord, Invoke } from "../../world/types.js";

const RULES: Record<PlannedFault["type"], string> = {
  timeout: "the system times out: nothing runs; answer status faulted with an error message saying the request timed out",
  http_500: "the system fails with HTTP 500: nothing runs; answer status faulted with an internal server error message",
  connection_refused: "the connection is refused: nothing runs; answer status faulted with a connection refused message",
  truncated_list: "the call runs, but its list answer comes back truncated: answer status faulted with only the first part of the rows, as if complete",
  dropped_field: "the call runs, but one field is missing from the answer: answer status faulted with the answer minus one declared field",
  emptied_value: "the call runs, but one value comes back empty: answer status faulted with one field's value empty (null or \"\")",
  stale_value: "the call runs, but the answer shows a value from before an earlier change of this conversation: answer status faulted with that older value",
};

/** The fault rule handed to the simulator for one planned call, in words. */
export function faultRule(f: PlannedFault): string {
  return `FAULT RULE (${f.mode}, ${f.type}, fault event ${f.fault_event}): ${RULES[f.type]}. Say in \`detail\` what you did.`;
}

/** The fault record of a call whose fault the simulator carried out. */
export function simulatedFaultRecord(f: PlannedFault, detail: string | undefined): FaultRecord {
  return { mode: f.mode, type: f.type, detail: `rule handed to the simulator; ${detail?.trim() || "no detail given"}`, fault_event: f.fault_event };
}

/**
 * The seeded fault plan of a simulated episode, counted over the agent's calls exactly as the
 * runtime's fault layer counts them (every agent call that reaches the tool layer, `wait` and
 * refused calls aside), whoever answers the call: the simulator gets the rule of a planned call
 * (`next`), and a reference tool the runtime still answers (documents, capability listings) gets
 * the runtime's own fault (`wrapReference`).
 */
export class SimulatedFaults {
  readonly plan: FaultPlan;
  readonly #planned: Map<number, PlannedFault>;
  readonly #calls: RandomStream;
  #count = 0;

  constructor(plan: FaultPlan) {
    this.plan = parseFaultPlan(plan);
    this.#planned = new Map(this.plan.faults.map((f) => [f.call, f]));
    this.#calls = new RandomStream(this.plan.seed).fork("faults").fork("calls");
  }

  /** Count one agent call; its planned fault, if any. */
  next(): { index: number; fault: PlannedFault | null } {
    const index = this.#count++;
    return { index, fault: this.#planned.get(index) ?? null };
  }

  /** The runtime's invoke for the reference tools, faulted as the runtime's fault layer would fault them. */
  wrapReference(inner: Invoke): Invoke {
    return (call) => {
      if (call.actor !== "agent") return inner(call);
      const { index, fault } = this.next();
      if (!fault) return inner(call);
      if (isExplicit(fault)) return explicitFaultOutcome(call, index, fault);
      const outcome = inner(call);
      if (outcome.status !== "executed") return outcome;
      const done = degrade(fault.type as ImplicitFault, outcome.result, { earlier: [], changes: [], rng: this.#calls.fork(String(index)) });
      return done ? { ...outcome, status: "faulted", result: done.result, fault: { mode: "implicit", type: done.type, detail: done.detail, fault_event: fault.fault_event } } : outcome;
    };
  }
}
