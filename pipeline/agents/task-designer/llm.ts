import { z } from "zod";
import type { RandomStream } from "../../core/random.js";
import type { DesignResult, DomainContext, TaskDesigner } from "../types.js";
import { WorldIndex } from "../plan/world-index.js";
import { DomainRows, type Row } from "../plan/domain-rows.js";
import { derivePlan, type PlanUnit } from "../plan/derive-plan.js";
import { toReferencePlan } from "../plan/actions.js";
import { DeterministicTaskDesigner, buildTask, designableWorkflows, namedCustomers } from "./deterministic.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";
import { TASK_DESIGNER_PROMPT } from "./prompt.js";

/** Customer voices the seeded variation picks from. */
const VOICES = ["brisk and to the point", "polite and detailed", "anxious about deadlines", "formal and precise", "informal and chatty", "sceptical, asks why"] as const;

const Choice = z
  .object({
    units: z.array(z.number().int().min(0)).min(1).max(3).describe("Indexes of the chosen units, in the order the agent should handle them."),
    persona: z.string().min(10).describe("Who the customer is and how they talk."),
    opening_request: z.string().min(10).describe("The customer's first message."),
  })
  .meta({ title: "task_design" });

/**
 * The task designer's llm strategy: the model chooses which feasible units to combine and writes the
 * customer's persona and opening request; the plan is then derived on the live state exactly as in
 * the deterministic strategy, so every task the model designs is proven executable.
 */
export class LlmTaskDesigner implements TaskDesigner {
  readonly #opts: LlmStrategyOptions;
  readonly #units = new DeterministicTaskDesigner();

  constructor(opts: LlmStrategyOptions) {
    this.#opts = opts;
  }

  async design(ctx: DomainContext, slot: number, rng: RandomStream): Promise<DesignResult> {
    const index = new WorldIndex(ctx.world);
    const rows = new DomainRows(ctx, index);
    try {
      const customers = namedCustomers(ctx, index);
      if (customers.length === 0) return { ok: false, reason: `the world names no rows of ${ctx.world.customer_table}` };
      const customer = customers[slot % customers.length] as Row;
      const id = `${ctx.card.id}-${String(slot + 1).padStart(3, "0")}`;
      const key = index.customerTable.primary_key;
      const draftOf = (u: PlanUnit[]) => (f: Parameters<typeof buildTask>[5], a: Parameters<typeof buildTask>[6]) => buildTask(ctx, id, customer, key, u, f, a, []);
      const workflows = designableWorkflows(ctx, index);
      const units = this.#units.feasibleUnits(ctx, index, rows, workflows, customer, draftOf);
      if (units.length === 0) return { ok: false, reason: `no unit of work can be carried out for ${String(customer[key])}` };
      const listing = units.map((u, i) => `${i}. ${u.workflow.title} — ${u.table.name} ${String(u.key)}`).join("\n");
      // Slots that share a customer must not send byte-identical prompts (at temperature 0 they
      // would come back as duplicate tasks): the slot and a variation drawn from its own seeded
      // stream steer the choice.
      const variation = { lead: rng.int(0, units.length - 1), voice: rng.pick(VOICES), size: rng.pick([2, 3, 1, 2]) };
      const choice = await askModel("task-designer", this.#opts, Choice.superRefine((c, zctx) => {
        for (const i of c.units) if (i >= units.length) zctx.addIssue({ code: "custom", path: ["units"], message: `unit ${i} does not exist; choose from 0 to ${units.length - 1}` });
        if (new Set(c.units.map((i) => units[i]?.workflow.id)).size !== c.units.length) zctx.addIssue({ code: "custom", path: ["units"], message: "choose units of different procedures" });
      }), TASK_DESIGNER_PROMPT, [
        `Domain: ${ctx.card.title} (${ctx.card.industry}). The agent is a ${ctx.card.role}.`,
        `Task slot ${slot + 1} of ${ctx.card.generation.task_count} (task id ${id}); other slots may serve the same customer, so make this one different.`,
        `Variation for this slot: lead with unit ${variation.lead} if it fits; aim for ${variation.size} unit(s); the customer's voice is ${variation.voice}.`,
        `Customer: ${JSON.stringify(customer)}`,
        `Units of work:\n${listing}`,
      ].join("\n"), id);
      const chosen = choice.units.map((i) => units[i] as PlanUnit);
      const plan = derivePlan(ctx, index, draftOf(chosen), chosen);
      if ("reason" in plan) return { ok: false, reason: `the model's combination is not executable: ${plan.reason}` };
      return { ok: true, task: buildTask(ctx, id, customer, key, chosen, plan.facts, plan.approvals, toReferencePlan(plan.actions), { persona: choice.persona, opening_request: choice.opening_request }, plan.decisions) };
    } finally {
      rows.close();
    }
  }
}
