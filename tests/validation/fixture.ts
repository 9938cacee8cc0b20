import { knowledgeDocument } from "../../pipeline/sources/knowledge-document.js";
import { fileURLToPath } from "node:url";
import { Task, type AcceptanceCheck, type PlanStep } from "../../pipeline/schemas/index.js";
import { loadDomain } from "../../pipeline/sources/load-domain.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { loadWorld } from "../../pipeline/world/load-world.js";
import { buildBaseState } from "../../pipeline/world/build-state.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import type { KnowledgeDocument } from "../../pipeline/world/documents-tool.js";
import { actionsFromPlan } from "../../validation/plan-actions.js";
import { runActions } from "../../validation/episode-actions.js";
import type { Trace } from "../../pipeline/schemas/index.js";

/** The mini-payments fixture domain of the validation tests, loaded like the graph loads a domain. */
export const DOMAIN_DIR = fileURLToPath(new URL("../fixtures/validation/mini-payments", import.meta.url));

let cached: DomainContext | undefined;

export function domain(): DomainContext {
  if (cached) return cached;
  const loaded = loadDomain(DOMAIN_DIR);
  if (!loaded.card) throw new Error(`fixture card invalid: ${JSON.stringify(loaded.issues)}`);
  const sop = extractLoadedSync(loaded).sop;
  const world = loadWorld(`${DOMAIN_DIR}/world.yaml`, "world.yaml");
  const documents: KnowledgeDocument[] = loaded.documents.map(knowledgeDocument);
  cached = { card: loaded.card, sop, world, base: buildBaseState(world, { seed: loaded.card.generation.seed }), documents };
  return cached;
}

const at = (document: string, version: string, clause: string) => ({ document, version, line_start: 1, line_end: 2, clause });
const rule = (id: string, document: string, version: string, clause: string) => ({ source: "rule" as const, rule: id, at: at(document, version, clause) });
const customer = (task: string, requirement: string) => ({ source: "customer" as const, at: { task, requirement } });

function check(id: string, group: AcceptanceCheck["group"], kind: string, params: Record<string, unknown>, provenance: AcceptanceCheck["provenance"]): AcceptanceCheck {
  return { id, group, kind, params, description: `${kind} ${id}`, provenance };
}

let n = 0;
function step(actor: PlanStep["actor"], operation: string, args: Record<string, unknown>, workflow: string | null, sop_step: string | null): PlanStep {
  return { step: ++n, actor, operation, args, workflow, sop_step, why: "fixture" };
}

const FEE = (op: string) => check("p-fee", "process", "rule_version_followed", { operation: op, arg: "fee", allowed: [15], forbidden: [25, 5], version: "payment-fee-schedule@2" }, rule("R-FEE", "payment-fee-schedule", "2", "FEE-1"));
const FLOOR = check("p-floor", "process", "invariant_holds", { rule: "R-FLOOR" }, rule("R-FLOOR", "liquidity-policy", "1", "LIQ-1.1"));
const CUTOFF = (op: string) => check("p-cutoff", "process", "deadline_met", { operation: op, by_minute: 419 }, rule("R-CUTOFF", "payment-release-procedure", "2.0", "PAY-3.1"));
const INVOICE = check("p-invoice", "process", "fact_elicited_before_use", { fact: "invoice_ref", operation: "validate_payment" }, rule("R-INVOICE", "payment-release-procedure", "2.0", "PAY-2.2"));
const BALANCE_FIRST = (op: string) => check("p-balance-first", "process", "executed_in_order", { before: "list_accounts", after: op }, rule("R-BALANCE-CHECK", "liquidity-policy", "1", "LIQ-1.2"));
const PROTECT = [
  check("x-other-payment", "protection", "protected_rows_unchanged", { table: "payments", keys: ["PAY-00003"] }, rule("R-FLOOR", "liquidity-policy", "1", "LIQ-1.1")),
  check("x-others", "protection", "other_customers_untouched", {}, rule("R-FLOOR", "liquidity-policy", "1", "LIQ-1.1")),
];
const invoiceFact = (value: string) => ({ id: "invoice_ref", statement: `The invoice reference is ${value}.`, value, param: "invoice_ref", disclose_when: ["invoice"] });

function releaseSteps(payment: string, invoice: string): PlanStep[] {
  return [
    step("agent", "get_payment", { payment_id: payment }, "payment-release", "s1"),
    step("agent", "get_client", { client_id: "CL-001" }, "payment-release", "s2"),
    step("agent", "ask", { fact: "invoice_ref", topic: "invoice reference" }, "payment-release", "s3"),
    step("agent", "validate_payment", { payment_id: payment, invoice_ref: invoice }, "payment-release", "s4"),
    step("agent", "list_accounts", { client_id: "CL-001" }, "payment-release", "s5"),
  ];
}

/** T1: release a small payment; no approval; the fee of the schedule in force. */
export function smallRelease(): Task {
  n = 0;
  return Task.parse({
    id: "release-small",
    domain: "mini-payments",
    title: "Release a small payment",
    objective: "PAY-00001 is released with the fee of the schedule in force.",
    workflows: ["payment-release"],
    as_of: "2026-03-02",
    customer_id: "CL-001",
    scenario: {
      persona: "Finance manager of Alder Freight, brief and precise.",
      opening_request: "Hello, this is Alder Freight (client CL-001). Please release our outgoing payment PAY-00001 today.",
      private_facts: [invoiceFact("INV-2026-0101")],
    },
    checks: {
      goal: [check("g-released", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "=", value: "released" }] }, customer("release-small", "objective"))],
      process: [
        INVOICE,
        FEE("release_payment"),
        BALANCE_FIRST("release_payment"),
        check("p-validated-first", "process", "executed_in_order", { before: "validate_payment", after: "release_payment" }, rule("R-INVOICE", "payment-release-procedure", "2.0", "PAY-2.2")),
        check("p-once", "process", "execution_count", { operation: "release_payment", max: 1 }, customer("release-small", "objective")),
        CUTOFF("release_payment"),
        FLOOR,
      ],
      protection: PROTECT,
    },
    reference_plan: [...releaseSteps("PAY-00001", "INV-2026-0101"), step("agent", "release_payment", { payment_id: "PAY-00001", fee: 15 }, "payment-release", "s9")],
    documents: { relevant: ["payment-release-procedure@2.0", "payment-fee-schedule@2", "liquidity-policy@1"], distractors: ["payment-fee-schedule@1", "payment-fee-schedule@3"] },
  });
}

/** T2: release a large payment; needs the client's approval of the exact amount. */
export function approvedRelease(): Task {
  n = 0;
  return Task.parse({
    id: "release-approved",
    domain: "mini-payments",
    title: "Release a payment that needs approval",
    objective: "PAY-00002 is released after the client approved its exact amount.",
    workflows: ["payment-release"],
    as_of: "2026-03-02",
    customer_id: "CL-001",
    scenario: {
      persona: "Finance manager of Alder Freight, the authorised approver.",
      opening_request: "Hello, Alder Freight here (client CL-001). Please release our outgoing payment PAY-00002 today.",
      private_facts: [invoiceFact("INV-2026-0102")],
      permitted_actions: ["approve_release"],
      approves: [{ kind: "payment_release", terms: { payment_id: "PAY-00002", amount: 25000 } }],
    },
    checks: {
      goal: [check("g-released", "goal", "final_row_state", { table: "payments", key: "PAY-00002", require: [{ column: "status", op: "=", value: "released" }] }, customer("release-approved", "objective"))],
      process: [
        check("p-approval", "process", "approval_before_execution", { operation: "release_approved_payment", required: true }, rule("R-APPROVAL", "payment-release-procedure", "2.0", "PAY-2.1")),
        INVOICE,
        FEE("release_approved_payment"),
        BALANCE_FIRST("release_approved_payment"),
        CUTOFF("release_approved_payment"),
        FLOOR,
      ],
      protection: PROTECT,
    },
    reference_plan: [
      ...releaseSteps("PAY-00002", "INV-2026-0102"),
      step("agent", "propose_release", { payment_id: "PAY-00002", amount: 25000 }, "payment-release", "s7"),
      step("customer", "approve", { proposal_of: "propose_release" }, "payment-release", "s8"),
      step("agent", "release_approved_payment", { payment_id: "PAY-00002", amount: 25000, fee: 15 }, "payment-release", "s10"),
    ],
    documents: { relevant: ["payment-release-procedure@2.0", "payment-fee-schedule@2", "liquidity-policy@1"], distractors: ["payment-fee-schedule@1", "payment-fee-schedule@3"] },
  });
}

/** T3: fund the operating account from the reserve, then release a payment once screening clears. */
export function fundedRelease(): Task {
  n = 0;
  return Task.parse({
    id: "fund-and-release",
    domain: "mini-payments",
    title: "Fund the account, then release after screening",
    objective: "EUR 5,000 moved from ACC-002 to ACC-001, then PAY-00004 released once screening cleared.",
    workflows: ["account-funding", "payment-release"],
    as_of: "2026-03-02",
    customer_id: "CL-001",
    initial_state: [{ table: "accounts", op: "upsert", row: { account_id: "ACC-001", balance: 14000 } }],
    scheduled_events: [{ id: "screening_cleared", description: "Screening clears the payment.", at: 20, effects: [{ sql: "UPDATE payments SET screening = 'cleared' WHERE payment_id = 'PAY-00004'" }] }],
    scenario: {
      persona: "Finance manager of Alder Freight.",
      opening_request: "Hello, Alder Freight here (client CL-001). Please move funds from our reserve account ACC-002 to our operating account ACC-001 so that our outgoing payment PAY-00004 can be released today.",
      private_facts: [
        invoiceFact("INV-2026-0103"),
        { id: "transfer_amount", statement: "Please move EUR 5,000.00.", value: 5000, param: "amount", disclose_when: ["amount", "how much"] },
      ],
    },
    checks: {
      goal: [
        check("g-released", "goal", "final_row_state", { table: "payments", key: "PAY-00004", require: [{ column: "status", op: "=", value: "released" }] }, customer("fund-and-release", "objective")),
        check("g-funded", "goal", "action_executed", { operation: "move_funds", args: { from_account: "ACC-002", to_account: "ACC-001", amount: 5000 } }, customer("fund-and-release", "objective")),
      ],
      process: [
        INVOICE,
        check("p-amount", "process", "fact_elicited_before_use", { fact: "transfer_amount", operation: "move_funds" }, rule("R-FLOOR", "liquidity-policy", "1", "LIQ-1.3")),
        FEE("release_payment"),
        check("p-funds-first", "process", "executed_in_order", { before: "move_funds", after: "release_payment" }, customer("fund-and-release", "objective")),
        check("p-move-once", "process", "execution_count", { operation: "move_funds", max: 1 }, customer("fund-and-release", "objective")),
        CUTOFF("release_payment"),
        FLOOR,
      ],
      protection: PROTECT,
    },
    reference_plan: [
      step("agent", "list_accounts", { client_id: "CL-001" }, "account-funding", "s1"),
      step("agent", "ask", { fact: "transfer_amount", topic: "amount to move" }, "account-funding", "s2"),
      step("agent", "move_funds", { from_account: "ACC-002", to_account: "ACC-001", amount: 5000 }, "account-funding", "s3"),
      ...releaseSteps("PAY-00004", "INV-2026-0103"),
      step("agent", "wait", { minutes: 20 }, "payment-release", null),
      step("agent", "release_payment", { payment_id: "PAY-00004", fee: 15 }, "payment-release", "s9"),
    ],
    documents: { relevant: ["payment-release-procedure@2.0", "payment-fee-schedule@2", "liquidity-policy@1"], distractors: ["payment-fee-schedule@1", "payment-fee-schedule@3"] },
  });
}

/** A task no rule bites: write a note on a payment (every flawed probe solves it). */
export function noteTask(): Task {
  n = 0;
  return Task.parse({
    id: "desk-note",
    domain: "mini-payments",
    title: "Record a desk note",
    objective: "A note is written on PAY-00001.",
    workflows: ["payment-note"],
    as_of: "2026-03-02",
    customer_id: "CL-001",
    scenario: { persona: "Finance manager.", opening_request: "Hello, this is client CL-001. Please record a desk note on our payment PAY-00001." },
    checks: {
      goal: [check("g-noted", "goal", "final_row_state", { table: "payments", key: "PAY-00001", require: [{ column: "note", op: "not_null" }] }, customer("desk-note", "objective"))],
      process: [check("p-note-once", "process", "execution_count", { operation: "add_note", max: 1 }, customer("desk-note", "objective"))],
      protection: PROTECT,
    },
    reference_plan: [
      step("agent", "get_payment", { payment_id: "PAY-00001" }, "payment-note", "s1"),
      step("agent", "add_note", { payment_id: "PAY-00001", note: "Client asked for a note." }, "payment-note", "s2"),
    ],
    documents: { relevant: ["payment-release-procedure@2.0"], distractors: [] },
  });
}

/** Every fixture task, in report order. */
export function allTasks(): Task[] {
  return [smallRelease(), approvedRelease(), fundedRelease(), noteTask()];
}

/** A copy of a task with extra checks added to a group. */
export function withChecks(task: Task, group: AcceptanceCheck["group"], ...extra: AcceptanceCheck[]): Task {
  return { ...task, checks: { ...task.checks, [group]: [...task.checks[group], ...extra] } };
}

/** A check for tests that plant one. */
export function plantedCheck(id: string, group: AcceptanceCheck["group"], kind: string, params: Record<string, unknown>): AcceptanceCheck {
  return check(id, group, kind, params, customer("planted", "test"));
}

/** The golden trace of a task: its reference plan followed through the episode tools. */
export function golden(task: Task): Trace {
  const ctx = domain();
  return runActions(ctx, task, actionsFromPlan(task, ctx.world), { role: "golden", label: "golden" });
}
