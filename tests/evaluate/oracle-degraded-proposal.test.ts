import { describe, expect, it } from "vitest";
import { evaluateSample } from "./runner-fixture.js";

describe("the oracle under silent degradation of a proposal's response", () => {
  it("asks approval of the proposal it just made, not of an older one (a degraded call still ran)", async () => {
    // marketplace-returns-002 at E2, seed 0: the second propose_refund's response loses its terms
    // (dropped_field, an implicit fault). The proposal was made all the same; before the fix the
    // replay asked the customer to approve PR-0001 (already consumed) and the refund was refused.
    const o = await evaluateSample({ agent: "oracle", tasks: ["marketplace-returns-002"], conditions: ["E2"] });
    const r = o.results[0];
    expect(r?.faults_injected).toBeGreaterThan(0);
    expect(r?.checks.filter((c) => !c.passed).map((c) => c.check)).toEqual([]);
    expect(r?.strict_success).toBe(true);
  }, 60_000);
});
