import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BASE_DOMAIN, brief, cleanDomains, doc, makeDomain, sopOf } from "./domain-helper.js";

afterAll(cleanDomains);

const V42 = readFileSync(join(BASE_DOMAIN, "docs", "payment-release-v4-2.md"), "utf8");

describe("rules of the sample domain", () => {
  const sop = sopOf(BASE_DOMAIN);

  it("extracts every anchored clause of every version with status, formal rule and provenance", () => {
    expect(sop.rules.map((r) => [r.id, r.document, r.version, r.status, r.formal_rule, r.provenance.line_start, r.provenance.line_end])).toEqual([
      ["PAY-2.1", "payment-release-procedure", "4.1", "superseded", "R-APPROVAL", 13, 14],
      ["PAY-3.2", "payment-release-procedure", "4.1", "superseded", "R-CUTOFF", 15, 15],
      ["PAY-2.1", "payment-release-procedure", "4.2", "current", "R-APPROVAL", 17, 19],
      ["PAY-2.2", "payment-release-procedure", "4.2", "current", null, 20, 21],
      ["PAY-3.2", "payment-release-procedure", "4.2", "current", "R-CUTOFF", 25, 27],
      ["RET-1.1", "retail-payment-limits", "1", "out_of_scope", null, 12, 13],
    ]);
    expect(sop.problems).toEqual([]);
  });

  it("splits statement, action, exceptions, prerequisites and affected objects", () => {
    const [pay21, pay22, pay32] = sop.rules.filter((r) => r.version === "4.2");
    expect(pay21).toEqual({
      id: "PAY-2.1",
      statement:
        "A payment of more than EUR 250,000.00 must be approved by the client's authorised approver before release with `release_payment`. Exception: payments between two accounts of the same client.",
      document: "payment-release-procedure",
      version: "4.2",
      effective_from: "2026-01-01",
      effective_to: null,
      scope: { segments: ["corporate", "sme"], regions: [], products: [], note: "Applies to corporate and SME clients of the Treasury Services desk." },
      affected_objects: ["release_payment"],
      prerequisites: [],
      action: "A payment of more than EUR 250,000.00 must be approved by the client's authorised approver before release with `release_payment`.",
      exceptions: ["payments between two accounts of the same client."],
      formal_rule: "R-APPROVAL",
      status: "current",
      provenance: { document: "payment-release-procedure", version: "4.2", line_start: 17, line_end: 19, clause: "PAY-2.1" },
    });
    expect(pay22?.prerequisites).toEqual([
      "Only after the client has given the invoice reference may a payment be released.",
      "Before releasing, confirm the payment is still `pending` in `payments`.",
    ]);
    expect(pay22?.affected_objects).toEqual(["payments"]);
    expect(pay32?.exceptions).toEqual(["payments flagged urgent by the relationship manager", "payments to the bank's own accounts."]);
    expect(pay32?.action).toBe("Same-day release is possible only before the 16:00 cut-off.");
  });

  it("judges versions for another as-of date", () => {
    const early = sopOf(BASE_DOMAIN, { asOf: "2025-06-01" });
    expect(early.documents.map((d) => [d.id, d.version, d.status])).toEqual([
      ["cancellation-faq", "2", "not_yet_effective"],
      ["payment-release-procedure", "4.1", "current"],
      ["payment-release-procedure", "4.2", "not_yet_effective"],
      ["retail-payment-limits", "1", "out_of_scope"],
    ]);
    expect(early.workflows.map((w) => `${w.id}@${w.version}`)).toEqual(["payment-release@4.1"]);
  });
});

describe("rule problems", () => {
  it("a clause defined twice in one version: error on the second, the first stands", () => {
    const sop = sopOf(makeDomain({ "docs/zz.md": doc({ id: "zz", title: "Rules", kind: "policy" }, "# R\n\n**ZZ-1** First.\n\n- **ZZ-1** Second.\n") }));
    expect(brief(sop)).toEqual([["SOP_DUPLICATE_ANCHOR", "docs/zz.md", 12, "error"]]);
    expect(sop.rules.filter((r) => r.id === "ZZ-1").map((r) => r.statement)).toEqual(["First."]);
  });

  it("references: cited or same-prefix unknown clauses are errors; record keys and technical words are not clauses", () => {
    const body = [
      "# Notes",
      "",
      "Payment PAY-00001 uses SHA-256 and UTF-8; see PAY-2.1 (PAY-9.9).",
      "",
      "- Under clause QQ-4 the desk may refuse; PAY-7 also applies.",
      "",
      "| Topic | Rule |",
      "|---|---|",
      "| limits | (LIM-1) |",
    ].join("\n");
    const sop = sopOf(makeDomain({ "docs/zz.md": doc({ id: "zz", title: "Notes", kind: "faq" }, body) }));
    expect(sop.problems.map((p) => [p.code, p.line, p.message])).toEqual([
      ["SOP_UNKNOWN_CLAUSE", 10, "refers to clause PAY-9.9, which no document of the domain defines"],
      ["SOP_UNKNOWN_CLAUSE", 12, "refers to clause PAY-7, which no document of the domain defines"],
      ["SOP_UNKNOWN_CLAUSE", 12, "refers to clause QQ-4, which no document of the domain defines"],
      ["SOP_UNKNOWN_CLAUSE", 16, "refers to clause LIM-1, which no document of the domain defines"],
    ]);
  });

  it("a formal rule whose clause only a superseded version defines is an error naming that version", () => {
    const without = V42.replace(/- \*\*PAY-3\.2\*\*[\s\S]*?own accounts\.\n/, "");
    const sop = sopOf(makeDomain({ "docs/payment-release-v4-2.md": without }));
    expect(brief(sop)).toEqual([["SOP_RULE_CLAUSE_MISSING", "world.yaml", 84, "error"]]);
    expect(sop.problems[0]?.message).toBe("formal rule R-CUTOFF points at clause PAY-3.2 of payment-release-procedure, but it is defined only in payment-release-procedure@4.1 (superseded)");
  });

  it("an operation-like name in a clause that the world does not have is for review", () => {
    const sop = sopOf(makeDomain({ "docs/zz.md": doc({ id: "zz", title: "Rules", kind: "policy" }, "# R\n\n- **ZZ-1** Never call `wire_money` or `release_payment` twice.\n") }));
    expect(brief(sop)).toEqual([["SOP_UNKNOWN_OBJECT", "docs/zz.md", 10, "review"]]);
    expect(sop.rules.find((r) => r.id === "ZZ-1")?.affected_objects).toEqual(["release_payment"]);
  });

  it("an invalid world.yaml is reported with its line; extraction goes on without operation checks", () => {
    const world = readFileSync(join(BASE_DOMAIN, "world.yaml"), "utf8").replace("customer_table: clients", "customer_table: Clients");
    const sop = sopOf(makeDomain({ "world.yaml": world }));
    expect(brief(sop)).toEqual([["SOP_WORLD_INVALID", "world.yaml", 2, "error"]]);
    expect(sop.rules).toHaveLength(6);
    expect(sop.workflows[0]?.steps[0]?.operation).toBeNull();
  });
});
