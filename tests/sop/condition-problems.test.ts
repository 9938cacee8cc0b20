import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BASE_DOMAIN, cleanDomains, makeDomain, sopOf } from "./domain-helper.js";

const DOC = "docs/payment-release-v4-2.md";
const original = readFileSync(join(BASE_DOMAIN, DOC), "utf8");

afterAll(cleanDomains);

describe("conditions the designer cannot decide are SOP problems for review", () => {
  it("a condition in the language on named quantities is no problem", () => {
    expect(sopOf(makeDomain()).problems.filter((p) => p.code === "SOP_CONDITION_UNREAD")).toEqual([]);
  });

  it("a condition outside the language is reported with its file and line, never taken as true", () => {
    const text = original.replace("If the amount is above EUR 250,000.00, then", "If the payment looks unusual to the officer, then");
    const problems = sopOf(makeDomain({ [DOC]: text })).problems.filter((p) => p.code === "SOP_CONDITION_UNREAD");
    const line = text.split("\n").findIndex((l) => l.includes("looks unusual")) + 1;
    // Problems are sorted by file, line, code, message: the otherwise branch comes first.
    expect(problems).toEqual([
      expect.objectContaining({ line, message: expect.stringContaining('the condition "otherwise (not: the payment looks unusual to the officer)" is not in the condition language') }),
      {
        code: "SOP_CONDITION_UNREAD",
        severity: "review",
        document: "payment-release-procedure",
        file: DOC,
        line,
        message: 'step 3 of procedure payment-release: the condition "the payment looks unusual to the officer" is not in the condition language (a named quantity compared with a number or another named quantity, a range, enumerated values, and/or, or an event of the last call); the task designer cannot decide it and tries every branch the world allows',
      },
    ]);
  });

  it("a comparison whose quantity no column or parameter is named after is reported", () => {
    const text = original.replace("If the amount is above EUR 250,000.00, then", "If the exposure is above EUR 250,000.00, then");
    const problems = sopOf(makeDomain({ [DOC]: text })).problems.filter((p) => p.code === "SOP_CONDITION_UNREAD");
    expect(problems.map((p) => p.message)).toEqual([
      'step 3 of procedure payment-release: the condition "otherwise (not: the exposure is above EUR 250,000.00)" compares "exposure", which no column or parameter of world.yaml is named after; the task designer cannot decide it and tries every branch the world allows',
      'step 3 of procedure payment-release: the condition "the exposure is above EUR 250,000.00" compares "exposure", which no column or parameter of world.yaml is named after; the task designer cannot decide it and tries every branch the world allows',
    ]);
  });
});
