import { afterAll, describe, expect, it } from "vitest";
import type { SopWorkflow } from "../../pipeline/schemas/sop.js";
import { BASE_DOMAIN, brief, cleanDomains, doc, makeDomain, sopOf } from "./domain-helper.js";

afterAll(cleanDomains);

/** A domain with one extra procedure document (front matter lines 1–7, body from line 8). */
function withProcedure(body: string, front: Record<string, string> = {}) {
  const dir = makeDomain({ "docs/zz-proc.md": doc({ id: "zz-proc", title: "Test procedure", ...front }, body) });
  const sop = sopOf(dir);
  return { sop, wf: (id: string) => sop.workflows.find((w) => w.id === id) as SopWorkflow };
}

describe("the sample procedure", () => {
  const sop = sopOf(BASE_DOMAIN);
  const wf = sop.workflows.find((w) => w.id === "payment-release") as SopWorkflow;

  it("keeps only the version in force and links steps to operations, actors and clauses", () => {
    expect(sop.workflows.map((w) => `${w.id}@${w.version}`)).toEqual(["payment-release@4.2"]);
    expect(wf.steps.map((s) => [s.id, s.operation, s.actor, s.requires, s.provenance.line_start, s.provenance.line_end, s.provenance.clause ?? null])).toEqual([
      ["s1", "get_payment", "agent", [], 31, 31, null],
      ["s2", null, "agent", [], 32, 32, "PAY-2.2"],
      ["s3", null, "agent", ["s1", "s2"], 33, 35, "PAY-2.1"],
      ["s4", "approve_release", "customer", ["s3"], 36, 36, null],
      ["s5", "release_payment", "agent", ["s4"], 37, 39, null],
    ]);
    expect(wf.resources).toEqual(["payments"]);
    expect(wf.rules).toEqual(["PAY-2.1", "PAY-2.2"]);
    expect(wf.provenance).toEqual({ document: "payment-release-procedure", version: "4.2", line_start: 29, line_end: 41 });
  });

  it("reads If/then/otherwise decisions, branch operations and return paths", () => {
    expect(wf.decisions).toEqual([
      {
        id: "d1",
        at_step: "s3",
        question: "the amount is above EUR 250,000.00",
        branches: [
          { when: "the amount is above EUR 250,000.00", condition: null, goto: "s4", outcome: "propose the release with `propose_release` and obtain the client's approval", rule: "PAY-2.1", operations: ["propose_release"] },
          { when: "otherwise (not: the amount is above EUR 250,000.00)", condition: null, goto: "s5", outcome: "continue with step 5", rule: "PAY-2.1", operations: [] },
        ],
        provenance: { document: "payment-release-procedure", version: "4.2", line_start: 34, line_end: 35, clause: "PAY-2.1" },
      },
      {
        id: "d2",
        at_step: "s5",
        question: "the release is rejected because the cut-off has passed",
        branches: [{ when: "the release is rejected because the cut-off has passed", condition: null, goto: "s3", outcome: "return to step 3 on the next business day", rule: null, operations: [] }],
        provenance: { document: "payment-release-procedure", version: "4.2", line_start: 38, line_end: 39 },
      },
    ]);
    expect(wf.transitions.filter((t) => t.kind !== "next")).toEqual([
      { from: "s3", to: "s5", kind: "branch", when: "otherwise (not: the amount is above EUR 250,000.00)" },
      { from: "s5", to: "s3", kind: "return", when: "the release is rejected because the cut-off has passed" },
    ]);
    expect(wf.return_paths).toEqual([{ from: "s5", to: "s3", kind: "return", when: "the release is rejected because the cut-off has passed" }]);
    expect(wf.transitions.filter((t) => t.kind === "next").map((t) => [t.from, t.to])).toEqual([
      ["s1", "s2"],
      ["s2", "s3"],
      ["s3", "s4"],
      ["s4", "s5"],
      ["s5", null],
    ]);
  });
});

describe("step order", () => {
  it("Steps N to M: the range depends on the step before it, the step after on the whole range", () => {
    const { wf, sop } = withProcedure("## Procedure: P {#p}\n\n1. A.\n2. B.\n3. C.\n4. D.\n5. E.\n\nSteps 2 to 4 can be carried out in any order.\n");
    expect(wf("p").steps.map((s) => s.requires)).toEqual([[], ["s1"], ["s1"], ["s1"], ["s2", "s3", "s4"]]);
    expect(brief(sop)).toEqual([]);
  });

  it("Steps N, M and K; two adjacent groups chain group to group", () => {
    const { wf } = withProcedure("## Procedure: P {#p}\n\n1. A.\n2. B.\n3. C.\n4. D.\n5. E.\n\nSteps 1, 2 and 3 can be carried out in any order. Steps 4 and 5 may be performed in any order.\n");
    expect(wf("p").steps.map((s) => s.requires)).toEqual([[], [], [], ["s1", "s2", "s3"], ["s1", "s2", "s3"]]);
  });

  it("reports steps that do not exist, gaps and unreadable order sentences; the order stays sequential", () => {
    const { wf, sop } = withProcedure("## Procedure: P {#p}\n\n1. A.\n2. B.\n3. C.\n\nSteps 2 and 9 can be carried out in any order.\n\nSteps 1 and 3 can be carried out in any order.\n\nThe checks may happen in any order.\n");
    expect(wf("p").steps.map((s) => s.requires)).toEqual([[], ["s1"], ["s2"]]);
    expect(brief(sop)).toEqual([
      ["SOP_BAD_STEP_REFERENCE", "docs/zz-proc.md", 14, "error"],
      ["SOP_ORDER_UNCLEAR", "docs/zz-proc.md", 16, "review"],
      ["SOP_ORDER_UNCLEAR", "docs/zz-proc.md", 18, "review"],
    ]);
  });
});

describe("decisions", () => {
  it("reads goto, continue, stop and decision tables (nested, or after the list with `Decision at step N:`)", () => {
    const { wf, sop } = withProcedure(
      [
        "## Procedure: P {#p}",
        "",
        "1. Look up the payment with `get_payment`.",
        "   - If the payment is cancelled, then stop.",
        "   - If the payment is released, then go to step 3; otherwise continue with step 2.",
        "2. Check the amount.",
        "",
        "   | Amount | Client segment | Outcome |",
        "   |---|---|---|",
        "   | above 250,000 | corporate | propose with `propose_release` |",
        "   | any |  | go to step 3 |",
        "3. Release it with `release_payment`.",
        "",
        "Decision at step 3:",
        "",
        "| Result | Outcome |",
        "|---|---|",
        "| refused | return to step 1 |",
        "",
      ].join("\n"),
    );
    const w = wf("p");
    expect(w.decisions.map((d) => [d.id, d.at_step, d.question, d.branches.map((b) => [b.when, b.goto, b.operations]), d.provenance.line_start])).toEqual([
      ["d1", "s1", "the payment is cancelled", [["the payment is cancelled", null, []]], 11],
      ["d2", "s1", "the payment is released", [["the payment is released", "s3", []], ["otherwise (not: the payment is released)", "s2", []]], 12],
      ["d3", "s2", "Amount / Client segment", [["Amount: above 250,000; Client segment: corporate", "s3", ["propose_release"]], ["Amount: any", "s3", []]], 15],
      ["d4", "s3", "Result", [["Result: refused", "s1", []]], 23],
    ]);
    expect(w.transitions.filter((t) => t.kind !== "next").map((t) => [t.from, t.to, t.kind])).toEqual([
      ["s1", null, "branch"],
      ["s1", "s3", "branch"],
      ["s1", "s2", "branch"],
      ["s2", "s3", "branch"],
      ["s3", "s1", "return"],
    ]);
    expect(brief(sop)).toEqual([]);
  });

  it("reports If without then, missing steps, one-column tables, ambiguous and unclear outcomes, forward returns", () => {
    const { wf, sop } = withProcedure(
      [
        "## Procedure: P {#p}",
        "",
        "1. Look up the payment with `get_payment`.",
        "   - If it is pending, release it.",
        "   - If it is held, then go to step 8.",
        "   - If it is stale, then go to step 2, then continue with step 3.",
        "   - If it is odd, then repeat step 2.",
        "   - If it is new, then return to step 3.",
        "",
        "   | Only |",
        "   |---|",
        "   | x |",
        "2. B.",
        "3. C.",
        "",
        "Decision at step 2:",
        "",
        "Text instead of a table.",
      ].join("\n"),
    );
    expect(brief(sop)).toEqual([
      ["SOP_IF_WITHOUT_THEN", "docs/zz-proc.md", 11, "error"],
      ["SOP_BAD_STEP_REFERENCE", "docs/zz-proc.md", 12, "error"],
      ["SOP_OUTCOME_AMBIGUOUS", "docs/zz-proc.md", 13, "review"],
      ["SOP_OUTCOME_UNCLEAR", "docs/zz-proc.md", 14, "review"],
      ["SOP_RETURN_FORWARD", "docs/zz-proc.md", 15, "review"],
      ["SOP_TABLE_ONE_COLUMN", "docs/zz-proc.md", 17, "review"],
      ["SOP_DECISION_NO_TABLE", "docs/zz-proc.md", 23, "review"],
    ]);
    expect(wf("p").decisions.map((d) => d.branches.map((b) => [b.when, b.goto]))).toEqual([[["it is stale", "s2"]], [["it is odd", "s2"]], [["it is new", "s3"]]]);
  });
});

describe("operations of steps", () => {
  it("errors on unknown operation names in a version in force; world names that are not operations are fine", () => {
    const { sop, wf } = withProcedure(
      "## Procedure: P {#p}\n\n1. Record the `invoice_ref` of the `pending` payment in `payments` with `relase_payment`.\n2. The client confirms.\n3. Look up with `get_payment` and release with `release_payment`.\n4. Check `approve_release`.\n",
    );
    expect(brief(sop)).toEqual([
      ["SOP_UNKNOWN_OPERATION", "docs/zz-proc.md", 10, "error"],
      ["SOP_STEP_SEVERAL_OPERATIONS", "docs/zz-proc.md", 12, "review"],
    ]);
    expect(sop.problems[0]?.message).toBe("step 1 of procedure p names `relase_payment`, which looks like an operation but is not one in world.yaml");
    expect(wf("p").steps.map((s) => [s.operation, s.actor])).toEqual([
      [null, "agent"],
      [null, "customer"],
      [null, "agent"],
      ["approve_release", "customer"],
    ]);
    expect(wf("p").resources).toEqual(["payments"]);
  });

  it("only asks for review of unknown operations in versions not in force (retired tools are normal there)", () => {
    const dir = makeDomain({ "docs/zz-old.md": doc({ id: "zz-old", title: "Old procedure", effective_to: "2025-12-31", effective_from: "2025-01-01" }, "## Procedure: Old {#old}\n\n1. Use `legacy_release`.\n") });
    const sop = sopOf(dir);
    expect(brief(sop)).toEqual([["SOP_UNKNOWN_OPERATION", "docs/zz-old.md", 11, "review"]]);
    expect(sop.workflows.map((w) => w.id)).toEqual(["payment-release"]);
  });

  it("reports a procedure id defined by two documents", () => {
    const { sop } = withProcedure("## Procedure: Again {#payment-release}\n\n1. Look up with `get_payment`.\n");
    expect(brief(sop)).toEqual([["SOP_DUPLICATE_WORKFLOW", "docs/zz-proc.md", 8, "error"]]);
    expect(sop.workflows.map((w) => `${w.id}@${w.document}`)).toEqual(["payment-release@payment-release-procedure"]);
  });
});
