import type { Scenario } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";
import type { Row } from "../plan/domain-rows.js";
import type { DerivedPlan, NeededFact, PlanUnit } from "../plan/derive-plan.js";

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** `A, B and C`: a list as a customer says it. */
function listText(items: readonly unknown[]): string {
  const words = items.map(String);
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** Display name of a customer row: its `name` column, else its first text column after the key. */
function displayName(row: Row): string {
  const name = row.name ?? Object.values(row).find((v, i) => i > 0 && typeof v === "string");
  return String(name ?? Object.values(row)[0]);
}

/**
 * The customer's scenario, derived from the plan: the opening request names each procedure and its
 * subject; every customer-only value becomes a private fact disclosed when asked about; the
 * customer agrees to exactly the terms the plan proposes and may perform the approvals it needs.
 */
export function buildScenario(ctx: DomainContext, customer: Row, units: readonly PlanUnit[], facts: readonly NeededFact[], approvals: DerivedPlan["approvals"]): Scenario {
  const who = displayName(customer);
  const asks = units.map((u) => `${lowerFirst(u.workflow.title)} for ${String(u.key)}`);
  // Customers quote their customer number, as they would on a call or in a ticket.
  const number = Object.values(customer)[0];
  const opening = `Hello, this is ${who} (customer number ${String(number)}). I need your help today: please ${asks.join(", and then ")}.`;
  const approveOps = ctx.world.operations.filter((o) => o.side === "customer" && o.approves && approvals.some((a) => a.kind === o.approves)).map((o) => o.name);
  return {
    persona: `${ctx.card.customer} at ${who}; precise, answers questions about details only when asked, and approves only terms it has agreed to.`,
    opening_request: opening,
    private_facts: facts.map((f) => {
      const words = f.param.replace(/_/g, " ");
      const lead = f.description.replace(/[.(].*$/s, "").trim().toLowerCase();
      return {
        id: f.param,
        statement: Array.isArray(f.value) ? `The ${words} are ${listText(f.value)}.` : `The ${words} is ${String(f.value)}.`,
        value: f.value as string | number | boolean | null | Array<string | number | boolean>,
        param: f.param,
        disclose_when: [...new Set([words, ...(lead && lead !== words ? [lead] : [])])],
      };
    }),
    preferences: [],
    permitted_actions: [...new Set(approveOps)].sort(),
    approves: approvals.map((a) => ({ kind: a.kind, terms: a.terms as Record<string, string | number | boolean | null> })),
  };
}

