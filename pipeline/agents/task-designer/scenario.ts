import type { Param, Scenario } from "../../schemas/index.js";
import { RandomStream } from "../../core/random.js";
import { sayValue } from "../../world/value-words.js";
import { openingRequest } from "./opening-request.js";
import type { DomainContext } from "../types.js";
import type { Row } from "../plan/domain-rows.js";
import { leadOf, rawLeadOf, type DerivedPlan, type NeededFact, type PlanUnit } from "../plan/derive-plan.js";

/** The customer-side parameter named `name` (labels and unit included), from the first operation that has one. */
function paramOf(ctx: DomainContext, name: string): Pick<Param, "labels" | "unit"> {
  for (const op of ctx.world.operations) {
    const p = op.params[name];
    if (p && p.source === "customer") return p;
  }
  return {};
}

/**
 * A fact as the customer states it, in the world's words for the value: "The reason for cancelling?
 * We asked for it." for a labelled value, "The dissolved oxygen is 6.5 mg/L." for a number with a
 * unit, the value itself otherwise.
 */
function statementOf(topic: string, value: unknown, p: Pick<Param, "labels" | "unit">): string {
  if (Array.isArray(value)) return `The ${topic} are ${listText(value.map((v) => sayValue(v, p)))}.`;
  const said = sayValue(value, p);
  if (p.labels?.[String(value)] !== undefined) return `The ${topic}? ${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
  // "When the symptoms started: cough for four days." rather than "The when the symptoms started is …".
  if (QUESTION.test(topic)) return `${topic.charAt(0).toUpperCase()}${topic.slice(1)}: ${said}.`;
  return `The ${topic} ${plural(topic) ? "are" : "is"} ${said}.`;
}

const QUESTION = /^(when|whether|how|what|which|who|where|why|any)\b/;

/**
 * The name a customer gives a fact in a statement: the description's leading words when short (up to
 * 6 words, or 10 for a question-like name said with a colon), else the parameter's words. A numeric
 * value never follows a name with a number in it ("pain score the patient gives, 0").
 */
function topicFor(value: unknown, description: string, words: string): string {
  const numeric = typeof value === "number" || (Array.isArray(value) && value.some((v) => typeof v === "number"));
  const name = numeric ? leadOf(description) : rawLeadOf(description);
  const n = name.split(/\s+/).length;
  return name && (n <= 6 || (n <= 10 && QUESTION.test(name))) ? name : words;
}

/** Whether a fact's name reads as a plural ("allergies", "freight and insurance costs"), by its head noun: the last word before any "of" ("country of origin of the goods" is singular). */
function plural(topic: string): boolean {
  const last = topic.split(/\s+of\s+/)[0]?.split(/\s+/).at(-1) ?? "";
  return /[^su]s$/.test(last) && !/(ss|is|us)$/.test(last);
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

/** A table's name for one of its rows: "payments PAY-10001" is said "payment PAY-10001", "beneficiaries" "beneficiary". */
function singular(name: string): string {
  return name.replace(/ies$/, "y").replace(/([^s])s$/, "$1");
}

/**
 * The customer's scenario, derived from the plan: the opening request names each procedure and its
 * subject; every customer-only value becomes a private fact disclosed when asked about; the
 * customer agrees to exactly the terms the plan proposes and may perform the approvals it needs.
 */
export function buildScenario(ctx: DomainContext, customer: Row, units: readonly PlanUnit[], facts: readonly NeededFact[], approvals: DerivedPlan["approvals"], renewals: Scenario["renewals"] = []): Scenario {
  const who = displayName(customer);
  const asks = units.map((u) => ({ title: u.workflow.title, object: singular(u.table.name.replace(/_/g, " ")), key: String(u.key) }));
  // Customers quote their customer number, as they would on a call or in a ticket.
  const number = String(Object.values(customer)[0]);
  // The phrasing depends on the seed and on what is asked, never on the order tasks are made in.
  const rng = new RandomStream(ctx.card.generation.seed).fork(`opening/${number}/${units.map((u) => `${u.workflow.id}:${String(u.key)}`).join("/")}`);
  const opening = openingRequest(who, number, asks, rng);
  const approveOps = ctx.world.operations.filter((o) => o.side === "customer" && o.approves && approvals.some((a) => a.kind === o.approves)).map((o) => o.name);
  return {
    persona: `${ctx.card.customer} at ${who}; precise, answers questions about details only when asked, and approves only terms it has agreed to.`,
    opening_request: opening,
    private_facts: facts.map((f) => {
      const words = f.param.replace(/_/g, " ");
      const raw = rawLeadOf(f.description);
      const p = paramOf(ctx, f.param);
      return {
        id: f.param,
        statement: statementOf(topicFor(f.value, f.description, words), f.value, p),
        value: f.value as string | number | boolean | null | Array<string | number | boolean>,
        param: f.param,
        // The customer recognises the fact by the parameter's words and by the description's (numbers included).
        disclose_when: [...new Set([words, ...(raw && raw !== words ? [raw] : [])])],
      };
    }),
    preferences: [],
    permitted_actions: [...new Set(approveOps)].sort(),
    approves: approvals.map((a) => ({ kind: a.kind, terms: a.terms as Record<string, string | number | boolean | null> })),
    renewals: [...renewals],
  };
}

