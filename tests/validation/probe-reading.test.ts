import { describe, expect, it } from "vitest";
import { valueIn } from "../../validation/probes/values.js";
import { evaluate } from "../../validation/probes/conditions.js";
import type { Param } from "../../pipeline/schemas/index.js";

const param = (p: Partial<Param>): Param => ({ type: "string", description: "d", required: true, max_length: 200, source: "customer", ...p }) as Param;
const env = (state: Record<string, unknown>) => ({ state: new Map(Object.entries(state)), last: null, approved: null });

describe("what a probe reads from answers and decisions", () => {
  it("matches enumerated values as whole words, the longest first", () => {
    const status = param({ enum: ["complete", "incomplete"] });
    expect(valueIn("The work is incomplete.", status)).toBe("incomplete");
    expect(valueIn("The work is complete.", status)).toBe("complete");
  });

  it("reads lists back from a customer's statement", () => {
    expect(valueIn("The line ids are L-1001-1 and L-1001-3.", param({ type: "array", items: { type: "string", pattern: "^L-\\d{4}-\\d$" } }))).toEqual(["L-1001-1", "L-1001-3"]);
    expect(valueIn("The items are kettle, mug and lamp.", param({ type: "array", items: { type: "string" } }))).toEqual(["kettle", "mug", "lamp"]);
  });

  it("decides enumerated and `any` cells of decision tables with the condition language", () => {
    expect(evaluate("Permit status: live; Gas test age (minutes): any", env({ permit_status: "live" }))).toBe(true);
    expect(evaluate("Permit status: suspended or closed; Gas test age (minutes): 30 or less", env({ permit_status: "live", gas_test_age: 10 }))).toBe(false);
  });
});
