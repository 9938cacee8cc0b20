// Kept for the coming agent evaluator (E0–E3 fault conditions); nothing in the build calls it yet.
import { canonicalJson } from "../core/canonical-json.js";
import { RandomStream } from "../core/random.js";
import { degrade } from "./fault-degrade.js";
import { explicitFaultOutcome, isExplicit } from "./fault-explicit.js";
import { parseFaultPlan, type FaultPlan, type ImplicitFault } from "./fault-plan.js";
import type { Invoke, RowChange, ToolCall, ToolOutcome } from "./types.js";

export { planFaults, faultForCall, parseFaultPlan, FaultPlan, PlannedFault, FAULT_CONDITIONS, EXPLICIT_FAULTS, IMPLICIT_FAULTS } from "./fault-plan.js";
export type { FaultCondition, ExplicitFault, ImplicitFault, PlanFaultsOptions } from "./fault-plan.js";

function callKey(call: ToolCall): string {
  try {
    return `${call.name}\u0000${canonicalJson(call.args)}`;
  } catch {
    return `${call.name}\u0000${JSON.stringify(call.args)}`;
  }
}

/**
 * Wraps the runtime's `invoke` with a fault plan: the only place faults happen. Agent calls are
 * counted from 0; customer calls pass through untouched and are not counted (scheduled events never
 * go through `invoke`). On a planned call:
 * - explicit (timeout, http_500, connection_refused): the runtime is not called; the outcome is
 *   `faulted`, with an error result, no changes, and the fault record;
 * - implicit: the call runs (its changes are kept); if it executed, its result is degraded (see
 *   `degrade`) and the outcome becomes `faulted` with the record. A rejected or errored call, or a
 *   result nothing can degrade, comes back unchanged: the planned fault is spent without effect.
 * Stale values come from the true results of earlier identical agent calls and from earlier row
 * changes seen through this wrapper. Same plan + same calls → identical outcomes. E0 (an empty
 * plan) returns `invoke` itself. A malformed plan throws FoundryError FAULT_PLAN_INVALID.
 */
export function withFaults(invoke: Invoke, faultPlan: FaultPlan): Invoke {
  const plan = parseFaultPlan(faultPlan);
  if (plan.faults.length === 0) return invoke;
  const planned = new Map(plan.faults.map((f) => [f.call, f]));
  const calls = new RandomStream(plan.seed).fork("faults").fork("calls");
  const earlier = new Map<string, Array<{ call: number; result: unknown }>>();
  const changes: RowChange[] = [];
  let agentCalls = 0;

  return (call: ToolCall): ToolOutcome => {
    if (call.actor !== "agent") {
      const outcome = invoke(call);
      if (outcome.status === "executed") changes.unshift(...outcome.changes);
      return outcome;
    }
    const index = agentCalls++;
    const fault = planned.get(index);
    if (fault && isExplicit(fault)) return explicitFaultOutcome(call, index, fault);

    const outcome = invoke(call);
    const key = callKey(call);
    const history = earlier.get(key) ?? [];
    if (outcome.status === "executed") changes.unshift(...outcome.changes);
    const result = structuredClone(outcome.result);
    let out = outcome;
    if (fault && outcome.status === "executed") {
      const done = degrade(fault.type as ImplicitFault, outcome.result, { earlier: history, changes, rng: calls.fork(String(index)) });
      if (done) out = { ...outcome, status: "faulted", result: done.result, fault: { mode: "implicit", type: done.type, detail: done.detail, fault_event: fault.fault_event } };
    }
    if (outcome.status === "executed") earlier.set(key, [...history, { call: index, result }]);
    return out;
  };
}
