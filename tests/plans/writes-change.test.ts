import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildDomainContext, loadValidDomain } from "../../pipeline/build/load-context.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { surveyUnits } from "../../pipeline/agents/task-designer/survey.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { executePlan } from "../../pipeline/agents/plan/execute-plan.js";
import { fromReferencePlan } from "../../pipeline/agents/plan/actions.js";
import { Task } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";

// The acme-payments fixture where the payment to release is already released and its invoice
// reference is on the row: binding the customer's invoice reference by name rebinds the current
// value, so release_payment would change nothing.

const INVOICE_PARAM = "      invoice_ref: { type: string, description: Invoice reference given by the client., source: customer }";
const ROW = "      - { payment_id: PAY-00001, client_id: CL-001, amount: 312000, status: pending }";
const RELEASED_ROWS = `      - { payment_id: PAY-00001, client_id: CL-001, amount: 312000, invoice_ref: INV-2026-0001, status: released }\n      - { payment_id: PAY-00002, client_id: CL-001, amount: 900, status: pending }`;

function context(edit: (world: string) => string): DomainContext {
  const root = mkdtempSync(join(tmpdir(), "writes-change-"));
  const dir = join(root, "acme-payments");
  cpSync("tests/fixtures/sources/acme-payments", dir, { recursive: true });
  const world = join(dir, "world.yaml");
  const before = readFileSync(world, "utf8");
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(world, after);
  const sop = extractLoadedSync(loadValidDomain(dir)).sop;
  return buildDomainContext(dir, sop);
}

describe("golden writes change something", () => {
  it("a write that would rebind the row's current value (no other value possible) makes the unit infeasible with that reason", async () => {
    const ctx = context((w) => w.replace(ROW, RELEASED_ROWS.replace("amount: 900, status", "amount: 900, invoice_ref: INV-2026-0002, status")).replace(INVOICE_PARAM, INVOICE_PARAM.replace("source: customer }", 'source: customer, pattern: "^INV-[0-9]{4}-[0-9]{4}$" }')));
    const survey = surveyUnits(ctx);
    expect(survey.unusable).toEqual([{
      item: "payment-release on payments PAY-00001",
      reason: "step s5 (release_payment): the write changes no row (invoice_ref is bound from the current payments.invoice_ref, so nothing changes; a value the customer wants must come from the scenario's private facts, not from a same-named column)",
    }]);
    expect(survey).toMatchObject({ units: 2, feasible: 1 });
    // No task is designed on it: every slot's design uses the other payment.
    const designer = new DeterministicTaskDesigner();
    const titles: string[] = [];
    for (let slot = 0; slot < 6; slot++) {
      const result = await designer.design(ctx, slot, new RandomStream(7).fork(`task-slot/${slot}`));
      titles.push(result.ok ? result.task.title : result.reason);
    }
    expect(titles).toEqual(Array(6).fill("Release an outgoing payment (PAY-00002)"));
  });

  it("a free-text value the customer wants is a private fact that differs from the row, and the golden write changes the row", async () => {
    const ctx = context((w) => w.replace(ROW, RELEASED_ROWS.split("\n")[0]!));
    const result = await new DeterministicTaskDesigner().design(ctx, 0, new RandomStream(7).fork("task-slot/0"));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.task.scenario.private_facts.map((f) => [f.id, f.value])).toEqual([["invoice_ref", "invoice ref as instructed by the customer"]]);
    const run = executePlan(ctx, result.task, fromReferencePlan(result.task.reference_plan), { role: "golden" });
    try {
      const release = run.trace.events.find((e) => e.name === "release_payment");
      expect(release?.status).toBe("executed");
      expect(release?.changes.map((c) => [c.key, c.before?.invoice_ref, c.after?.invoice_ref])).toEqual([["PAY-00001", "INV-2026-0001", "invoice ref as instructed by the customer"]]);
    } finally {
      run.close();
    }
  });

  it("protection checks never list the task's own target rows, even when a write left them unchanged", async () => {
    const ctx = context((w) => w.replace(ROW, RELEASED_ROWS));
    const task = Task.parse({
      id: "acme-payments-901",
      domain: "acme-payments",
      title: "Release an outgoing payment (PAY-00001)",
      objective: "For CL-001: release an outgoing payment for payments PAY-00001.",
      workflows: ["payment-release"],
      as_of: "2026-03-02",
      customer_id: "CL-001",
      scenario: { persona: "Finance manager.", opening_request: "Please release PAY-00001.", private_facts: [{ id: "invoice_ref", statement: "The invoice ref is INV-2026-0001.", value: "INV-2026-0001", param: "invoice_ref", disclose_when: ["invoice ref"] }] },
      checks: { goal: [{ id: "draft", group: "goal", kind: "action_executed", params: { operation: "release_payment" }, description: "draft", provenance: { source: "customer", at: { task: "acme-payments-901", requirement: "objective" } } }], process: [], protection: [] },
      reference_plan: [
        { step: 1, actor: "agent", operation: "get_payment", args: { payment_id: "PAY-00001" }, workflow: "payment-release", sop_step: "s1", why: "s1" },
        { step: 2, actor: "agent", operation: "ask", args: { fact: "invoice_ref", topic: "invoice ref" }, workflow: "payment-release", sop_step: "s2", why: "s2" },
        { step: 3, actor: "agent", operation: "release_payment", args: { payment_id: "PAY-00001", invoice_ref: "INV-2026-0001" }, workflow: "payment-release", sop_step: "s5", why: "s5" },
      ],
      documents: { relevant: ["payment-release-procedure@4.2"], distractors: [] },
    });
    const checked = await new DeterministicRubricWriter().writeChecks(ctx, task);
    expect(checked.checks.protection.filter((c) => c.kind === "protected_rows_unchanged").map((c) => c.params)).toEqual([{ table: "payments", keys: ["PAY-00002"] }]);
  });
});
