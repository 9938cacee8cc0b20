import { describe, expect, it } from "vitest";
import { MadeIds } from "../../pipeline/evaluate/agents/made-ids.js";

describe("ids a replaying agent follows from the recorded trace into the live episode", () => {
  it("pairs identifier fields of a recorded and a live result, and uses the live id in later arguments and texts", () => {
    const ids = new MadeIds();
    ids.learn({ hold_id: "H-26-90021", status: "open", amount: 100 }, { hold_id: "H-26-90023", status: "open", amount: 120 });
    ids.learn([{ id: 7, name: "a" }], [{ id: 9, name: "b" }]);
    // Only identifier fields are followed: an amount or a name that differs is not an id.
    expect(ids.apply({ hold_id: "H-26-90021", amount: 100, note: "a", nested: [{ ref_id: 7 }] })).toEqual({ hold_id: "H-26-90023", amount: 100, note: "a", nested: [{ ref_id: 9 }] });
    expect(ids.text("Please close H-26-90021 (not H-26-900210).")).toBe("Please close H-26-90023 (not H-26-900210).");
  });

  it("changes nothing when the live episode made the same ids, or a value of another type", () => {
    const ids = new MadeIds();
    ids.learn({ proposal_id: "PR-0001" }, { proposal_id: "PR-0001" });
    ids.learn({ bed_id: "12" }, { bed_id: 12 });
    const args = { proposal_id: "PR-0001", bed_id: "12" };
    expect(ids.apply(args)).toBe(args);
  });
});
