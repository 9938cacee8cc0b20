import { describe, expect, it } from "vitest";
import { checkDomainId, parseDomainList } from "../../pipeline/core/domain-id.js";

describe("domain-id", () => {
  it("checkDomainId and parseDomainList accept ids and refuse paths", () => {
    expect(parseDomainList(" fx-treasury, ed_triage ,", "--domains")).toEqual(["fx-treasury", "ed_triage"]);
    for (const bad of ["..", ".", "a/b", "/abs", "A", "-x", "x y", "x\\y", ""]) {
      expect(() => checkDomainId(bad, "--domains"), bad).toThrow(/is not a domain id/);
    }
  });
});
