import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { ValidationReport } from "../../pipeline/schemas/index.js";
import { evaluateCondition, parseCondition } from "../../pipeline/sop/condition.js";

// acme-payments: "3. If the amount is above EUR 250,000.00, then propose the release with
// `propose_release` and obtain the client's approval; otherwise continue with step 5." The world
// does not refuse a release without approval, so the shortest path (s3 → s5) skips the branch.
// PAY-00001 (EUR 312,000) must take it; PAY-00002 (EUR 9,000) must not.

const ROW = "      - { payment_id: PAY-00001, client_id: CL-001, amount: 312000, status: pending }";
const ROWS = `      - { payment_id: PAY-00001, client_id: CL-001, amount: 312000, invoice_ref: INV-2026-0001, status: pending }\n      - { payment_id: PAY-00002, client_id: CL-001, amount: 9000, invoice_ref: INV-2026-0002, status: pending }`;

async function build(): Promise<{ root: string; report: ValidationReport }> {
  const root = mkdtempSync(join(tmpdir(), "branches-"));
  cpSync("tests/fixtures/sources/acme-payments", join(root, "sources/acme-payments"), { recursive: true });
  const world = join(root, "sources/acme-payments/world.yaml");
  writeFileSync(world, readFileSync(world, "utf8").replace(ROW, ROWS));
  const card = join(root, "sources/acme-payments/domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace("seed: 7", "seed: 7\n  task_count: 2"));
  await runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") });
  return { root, report: ValidationReport.parse(JSON.parse(readFileSync(join(root, "generated/acme-payments/validation.json"), "utf8"))) };
}

describe("decision-faithful plans", () => {
  it("parses the condition language and evaluates it on known values", () => {
    const above = parseCondition("the amount is above EUR 250,000.00");
    expect(above).toEqual({ kind: "compare", quantity: "amount", op: ">", value: 250000, unit: "EUR" });
    expect(evaluateCondition(above!, new Map([["amount", 312000]]))).toBe(true);
    expect(evaluateCondition(above!, new Map([["amount", 9000]]))).toBe(false);
    expect(evaluateCondition(parseCondition("otherwise (not: the amount is above EUR 250,000.00)")!, new Map([["amount", 9000]]))).toBe(true);
    expect(parseCondition("Duty on the declaration: EUR 10.00 to EUR 20,000.00; Deferment account: any")).toEqual({ kind: "range", quantity: "Duty on the declaration", min: 10, max: 20000, unit: "EUR" });
    expect(parseCondition("Precautions: contact or droplet; Triage level: 1 or 2")).toEqual({ kind: "and", of: [{ kind: "in", quantity: "Precautions", values: ["contact", "droplet"] }, { kind: "in", quantity: "Triage level", values: ["1", "2"] }] });
    expect(parseCondition("the obs age (minutes since the last observations) is 60 or less")).toEqual({ kind: "compare", quantity: "obs age", op: "<=", value: 60, unit: null });
    expect(parseCondition("the release is rejected because the cut-off has passed")).toEqual({ kind: "event", event: "refused" });
    expect(parseCondition("the relative difference is more than 20 %")).toEqual({ kind: "compare", quantity: "relative difference", op: ">", value: 20, unit: "%" });
    // Text outside the language never parses, so it is never taken as true.
    expect(parseCondition("the duty is EUR 10.00 or more and not yet secured")).toBeNull();
    expect(parseCondition("the goods have been released")).toBeNull();
    // A quantity nothing names is undecidable, not false.
    expect(evaluateCondition(above!, new Map([["fee", 15]]))).toBeUndefined();
  });

  it("compares a named quantity with another one: table cells and prose, each side its own known value", () => {
    const row = parseCondition("Duty amount on the declaration: EUR 10.00 to EUR 20,000.00; Account status: active; Available balance: at least the duty amount");
    expect(row).toEqual({
      kind: "and",
      of: [
        { kind: "range", quantity: "Duty amount on the declaration", min: 10, max: 20000, unit: "EUR" },
        { kind: "in", quantity: "Account status", values: ["active"] },
        { kind: "relate", quantity: "Available balance", op: ">=", other: "duty amount" },
      ],
    });
    const state = (balance: number) => new Map<string, unknown>([["duty_amount", 17850.6], ["duty_rate", 4.7], ["account_status", "active"], ["available_balance", balance]]);
    expect(evaluateCondition(row!, state(38420))).toBe(true);
    expect(evaluateCondition(row!, state(12500))).toBe(false);
    expect(evaluateCondition(parseCondition("Duty amount on the declaration: EUR 10.00 or more; Account status: any; Available balance: below the duty amount")!, state(12500))).toBe(true);
    const prose = parseCondition("the amount transferred differs from the duty amount");
    expect(prose).toEqual({ kind: "relate", quantity: "amount transferred", op: "!=", other: "duty amount" });
    expect(evaluateCondition(prose!, new Map([["duty_amount", 19980], ["amount_transferred", 19890]]))).toBe(true);
    expect(evaluateCondition(prose!, new Map([["duty_amount", 19980], ["amount_transferred", 19980]]))).toBe(false);
    // Before the customer states the amount transferred, both sides would name duty_amount: undecidable, not "equal".
    expect(evaluateCondition(prose!, new Map([["duty_amount", 19980]]))).toBeUndefined();
    const limit = parseCondition("the EUR equivalent exceeds the available limit");
    expect(limit).toEqual({ kind: "relate", quantity: "EUR equivalent", op: ">", other: "available limit" });
    // A side the state holds only by arithmetic (limit − used) is not stood in for by the nearest column.
    expect(evaluateCondition(limit!, new Map([["amount_eur", 49850], ["daily_limit_eur", 400000], ["limit_used_eur", 19780]]))).toBeUndefined();
    expect(evaluateCondition(limit!, new Map([["eur_equivalent", 49850], ["available_limit", 30000]]))).toBe(true);
    // A cell says more than a comparison of its header when words come before the comparator.
    expect(JSON.stringify(parseCondition("Same-currency funding account: exists and its balance covers the shortfall"))).not.toContain("relate");
    // Arithmetic is not a named quantity: outside the language.
    expect(parseCondition("the balance less the payment amount would be below the reserve floor")).toBeNull();
  });

  it("the golden trace takes the branch the document requires, branch_followed checks it both ways, and take_other_branch is killed", async () => {
    const { root, report } = await build();
    const tasks = readFileSync(join(root, "generated/acme-payments/validation.json"), "utf8");
    expect(tasks).toContain("take_other_branch");
    // Tasks may combine both payments (one workflow on two rows): the mutants are told apart by payment.
    const others = report.tasks.flatMap((t) => t.mutants.filter((m) => m.operator === "take_other_branch"));
    // The large payment: propose, approve, then release; the check asks for the proposal.
    expect(others.filter((m) => (m.reason ?? "").includes('"PAY-00001"'))).toEqual(
      expect.arrayContaining([expect.objectContaining({ killed: true, target_check: "process-payment-release-d1-taken-propose_release", reason: 'the condition "the amount is above EUR 250,000.00" held, but propose_release never ran with payment_id = "PAY-00001"' })]),
    );
    expect(others.filter((m) => (m.reason ?? "").includes('"PAY-00002"'))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ killed: true, target_check: expect.stringMatching(/^process-payment-release-d1-not-taken-propose_release(-\d)?$/), reason: expect.stringMatching(/^the condition "the amount is above EUR 250,000\.00" did not hold, but propose_release ran with payment_id = "PAY-00002" at event \d+$/) }),
        // The otherwise branch ("continue with step 5") names no operation: it requires the step it leads to.
        expect.objectContaining({ killed: true, target_check: expect.stringMatching(/^process-payment-release-d1-taken-release_payment(-\d)?$/), reason: 'the condition "otherwise (not: the amount is above EUR 250,000.00)" held, but release_payment never ran with payment_id = "PAY-00002"' }),
      ]),
    );
    expect(others.every((m) => m.killed)).toBe(true);
  }, 60_000);

  it("the designer's plan for the large payment proposes and obtains approval before the release", async () => {
    const { buildDomainContext, loadValidDomain } = await import("../../pipeline/build/load-context.js");
    const { extractLoadedSync } = await import("../../pipeline/sop/extract-loaded.js");
    const { DeterministicTaskDesigner } = await import("../../pipeline/agents/task-designer/deterministic.js");
    const { RandomStream } = await import("../../pipeline/core/random.js");
    const root = mkdtempSync(join(tmpdir(), "branches-plan-"));
    const dir = join(root, "acme-payments");
    cpSync("tests/fixtures/sources/acme-payments", dir, { recursive: true });
    const ctx = buildDomainContext(dir, extractLoadedSync(loadValidDomain(dir)).sop);
    const r = await new DeterministicTaskDesigner().design(ctx, 0, new RandomStream(7).fork("task-slot/0"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.task.reference_plan.map((p) => `${p.sop_step} ${p.operation}`)).toEqual(["s1 read_document", "s1 get_payment", "s3 propose_release", "s4 approve", "s5 ask", "s5 release_payment"]);
    expect(r.task.decisions).toEqual([
      { workflow: "payment-release", decision: "d1", at_step: "s3", when: "the amount is above EUR 250,000.00", held: true, operations: ["propose_release"], outdated: { document: "payment-release-procedure", version: "4.1", clause: "PAY-2.1", value: 500000 } },
      { workflow: "payment-release", decision: "d1", at_step: "s3", when: "otherwise (not: the amount is above EUR 250,000.00)", held: false, operations: [], outdated: { document: "payment-release-procedure", version: "4.1", clause: "PAY-2.1", value: 500000 } },
    ]);
    // The rubric writer's branch check names the clause in force and the superseded one.
    const { DeterministicRubricWriter } = await import("../../pipeline/agents/rubric-writer/deterministic.js");
    const checked = await new DeterministicRubricWriter().writeChecks(ctx, r.task);
    const branch = checked.checks.process.find((c) => c.id === "process-payment-release-d1-taken-propose_release");
    expect(branch?.provenance).toMatchObject({ source: "rule", at: { document: "payment-release-procedure", version: "4.2", clause: "PAY-2.1" }, outdated: { document: "payment-release-procedure", version: "4.1", clause: "PAY-2.1" } });
    // Branch coverage lists each branch with the tasks that take it, or why none does.
    const { branchCoverage } = await import("../../validation/branch-coverage.js");
    expect(branchCoverage(ctx.sop, [r.task])).toEqual([
      { workflow: "payment-release", decision: "d1", when: "the amount is above EUR 250,000.00", tasks: [r.task.id], reason: null },
      { workflow: "payment-release", decision: "d1", when: "otherwise (not: the amount is above EUR 250,000.00)", tasks: [], reason: "the condition was evaluated and did not hold on any released task's state" },
      { workflow: "payment-release", decision: "d2", when: "the release is rejected because the cut-off has passed", tasks: [], reason: "the condition is an event the world decides (a refusal, a decline, an approval), not evaluated on the state" },
    ]);
    expect(branch?.description).toBe("propose_release is done, because the amount is above EUR 250,000.00. Version 4.1 of payment-release-procedure (PAY-2.1: 500000) is not in force.");
  });
});

describe("versions that matter", () => {
  it("a threshold that differs in the superseded version: the branch check names both clauses, and following the old version fails it", async () => {
    const { root, report } = await build();
    const tasks = JSON.parse(readFileSync(join(root, "generated/acme-payments/validation.json"), "utf8")) as ValidationReport;
    expect(tasks.tasks.length).toBe(2);
    const large = report.tasks.find((t) => t.mutants.some((m) => m.target_check === "process-payment-release-d1-taken-propose_release"));
    // The report names the trap with both clauses, and the wrong-version probes that fail on it.
    expect(large?.traps?.map((t) => [t.check, t.in_force, t.outdated])).toEqual([
      ["process-payment-release-d1-taken-propose_release", "payment-release-procedure@4.2 PAY-2.1", "payment-release-procedure@4.1 PAY-2.1"],
    ]);
    expect(large?.traps?.[0]?.failed_by).toEqual(Object.entries(large?.probes ?? {}).filter(([n, solved]) => (n === "newest-version" || n === "first-found") && !solved).map(([n]) => n));
    // Under version 4.1 (superseded: EUR 500,000.00) a payment of EUR 312,000 needs no approval.
    expect(large?.mutants.filter((m) => m.operator === "follow_outdated_rule")).toEqual([
      expect.objectContaining({
        killed: true,
        target_check: "process-payment-release-d1-taken-propose_release",
        description: expect.stringMatching(/^followed payment-release-procedure@4\.1 PAY-2\.1, not in force: skipped propose_release/),
        reason: 'the condition "the amount is above EUR 250,000.00" held, but propose_release never ran with payment_id = "PAY-00001"',
      }),
    ]);
  }, 60_000);
});
