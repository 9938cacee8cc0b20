import { describe, expect, it } from "vitest";
import { FoundryError } from "../../pipeline/core/errors.js";
import { EXPLICIT_FAULTS, IMPLICIT_FAULTS, parseFaultPlan, planFaults, type FaultPlan } from "../../pipeline/world/faults.js";

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** Every fault event covers `calls_per_event` consecutive calls with one mode and type; windows never overlap. */
function expectWellFormed(plan: FaultPlan) {
  expect(plan.faults.length).toBe(plan.events * plan.calls_per_event);
  const calls = plan.faults.map((f) => f.call);
  expect(new Set(calls).size).toBe(calls.length);
  expect(calls).toEqual([...calls].sort((a, b) => a - b));
  for (let e = 0; e < plan.events; e++) {
    const group = plan.faults.filter((f) => f.fault_event === e);
    expect(group.map((f) => f.call - (group[0]?.call ?? 0))).toEqual([...Array(plan.calls_per_event).keys()]);
    expect(new Set(group.map((f) => `${f.mode}/${f.type}`)).size).toBe(1);
    expect(Math.max(...group.map((f) => f.call))).toBeLessThan(plan.horizon);
  }
}

describe("planFaults", () => {
  it("same options give an identical plan", () => {
    const a = planFaults({ condition: "E3", seed: 42, events: 3, callsPerEvent: 2, totalCallsHint: 20 });
    expect(planFaults({ condition: "E3", seed: 42, events: 3, callsPerEvent: 2, totalCallsHint: 20 })).toEqual(a);
    expectWellFormed(a);
  });

  it("defaults: 2 events of 2 calls over a horizon of 12 calls", () => {
    const plan = planFaults({ condition: "E1", seed: 7 });
    expect([plan.events, plan.calls_per_event, plan.horizon, plan.faults.length]).toEqual([2, 2, 12, 4]);
    expectWellFormed(plan);
    expect(plan.faults.filter((f) => f.fault_event === 0).every((f) => f.call < 6)).toBe(true);
    expect(plan.faults.filter((f) => f.fault_event === 1).every((f) => f.call >= 6)).toBe(true);
  });

  it("E1 plans only explicit faults, E2 only implicit ones, at the same calls for one seed", () => {
    const e1 = planFaults({ condition: "E1", seed: 9, events: 6 });
    const e2 = planFaults({ condition: "E2", seed: 9, events: 6 });
    expect(e1.faults.every((f) => f.mode === "explicit" && (EXPLICIT_FAULTS as readonly string[]).includes(f.type))).toBe(true);
    expect(e2.faults.every((f) => f.mode === "implicit" && (IMPLICIT_FAULTS as readonly string[]).includes(f.type))).toBe(true);
    expect(e2.faults.map((f) => f.call)).toEqual(e1.faults.map((f) => f.call));
  });

  it("E3 mixes explicit and implicit events over a long enough plan", () => {
    const plan = planFaults({ condition: "E3", seed: 3, events: 20, callsPerEvent: 1 });
    expectWellFormed(plan);
    const modes = plan.faults.map((f) => f.mode);
    expect(modes.filter((m) => m === "explicit").length).toBeGreaterThan(2);
    expect(modes.filter((m) => m === "implicit").length).toBeGreaterThan(2);
  });

  it("E0 and zero events plan nothing", () => {
    expect(planFaults({ condition: "E0", seed: 1 }).faults).toEqual([]);
    expect(planFaults({ condition: "E2", seed: 1, events: 0 }).faults).toEqual([]);
  });

  it("a hint shorter than the faults needs is stretched so windows still fit", () => {
    const plan = planFaults({ condition: "E1", seed: 5, events: 3, callsPerEvent: 2, totalCallsHint: 2 });
    expect(plan.horizon).toBe(6);
    expect(plan.faults.map((f) => f.call)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("rejects bad options with FoundryError quoting the value", () => {
    const e = caught(() => planFaults({ condition: "E1", seed: 1, events: -1 }));
    expect(FoundryError.is(e) && [e.code, e.message]).toEqual(["FAULT_PLAN_OPTION", "Expected `events` to be a whole number from 0 and up, got `-1`"]);
    const c = caught(() => planFaults({ condition: "E9" as "E1", seed: 1 }));
    expect(FoundryError.is(c) && c.message).toBe('Expected `condition` to be one of E0, E1, E2, E3, got `"E9"`');
    const s = caught(() => planFaults({ condition: "E1", seed: 1.5 }));
    expect(FoundryError.is(s) && s.message).toBe("Expected `seed` to be an integer, got `1.5`");
  });

  it("parseFaultPlan refuses a mode/type mismatch and a call planned twice", () => {
    const base = { condition: "E2", seed: 1, events: 1, calls_per_event: 1, horizon: 3 };
    const mismatch = caught(() => parseFaultPlan({ ...base, faults: [{ call: 0, fault_event: 0, mode: "explicit", type: "stale_value" }] }));
    expect(FoundryError.is(mismatch) && [mismatch.code, mismatch.location.path]).toEqual(["FAULT_PLAN_INVALID", "faults.0.type"]);
    const twice = caught(() => parseFaultPlan({ ...base, faults: [{ call: 0, fault_event: 0, mode: "explicit", type: "timeout" }, { call: 0, fault_event: 0, mode: "explicit", type: "timeout" }] }));
    expect(FoundryError.is(twice) && twice.message).toBe("fault plan lists an agent call twice");
  });
});
