import { describe, expect, it } from "vitest";
import { replacedNumber } from "../../pipeline/agents/plan/version-traps.js";

const TRI_30 = "Every triaged patient who is still in the department is reassessed at least at the interval of their current level (TRI-3.1): every 5 minutes at level 1, 15 minutes at level 2, 30 minutes at level 3, 60 minutes at level 4 and 120 minutes at level 5.";
const TRI_23 = "Patients are reassessed at the interval of their level: 15 minutes at level 2, 60 minutes at level 3, 120 minutes at level 4 and 240 minutes at level 5.";

describe("a version trap's number: the one the other version states in the same place", () => {
  it("finds the number a version replaced, and none for a number both versions state in place", () => {
    expect(replacedNumber("A charge of up to and including EUR 20,000.00 per declaration is covered by the standing authority", "A charge of up to and including EUR 15,000.00 per declaration is covered by the standing authority the account holder has lodged", 20000)).toBe(15000);
    // Level 3's interval changed (30 → 60 minutes), level 3 itself did not: counting numbers by
    // position would pair "level 3" with another version's "level 4".
    expect(replacedNumber(TRI_30, TRI_23, 30)).toBe(60);
    expect(replacedNumber(TRI_30, TRI_23, 3)).toBeUndefined();
    expect(replacedNumber(TRI_30, TRI_23, 1)).toBeUndefined();
  });
});
