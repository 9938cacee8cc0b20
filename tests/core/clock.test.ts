import { describe, expect, it } from "vitest";
import { LogicalClock, logicalToIso } from "../../pipeline/core/clock.js";

describe("LogicalClock", () => {
  it("only moves forward, in whole minutes", () => {
    const c = new LogicalClock();
    expect(c.advance(30)).toBe(30);
    expect(c.advanceTo(10)).toBe(30);
    expect(c.advanceTo(45)).toBe(45);
    expect(() => c.advance(-1)).toThrow("clock can only advance by a whole number >= 0, got -1");
    expect(() => c.advance(1.5)).toThrow(RangeError);
  });
  it("maps logical minutes to calendar time from the domain's epoch", () => {
    expect(logicalToIso("2026-03-02T09:00Z", 420)).toBe("2026-03-02T16:00:00Z");
  });
});
