import { z } from "zod";
import { Slug } from "./provenance.js";
import { AcceptanceCheck } from "./acceptance-check.js";
import { ScheduledEvent } from "./world-model.js";

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const OverlayChange = z
  .object({
    table: z.string().describe("Table to change."),
    op: z.enum(["upsert", "delete"]).describe("Insert-or-update a row, or delete it."),
    row: z.record(z.string(), Scalar).describe("For upsert: the full or partial row (must contain the primary key); for delete: the primary key."),
  })
  .strict();

export const PrivateFact = z
  .object({
    id: z.string().min(1).describe("Fact id, referenced by checks and by trace events that disclose it."),
    statement: z.string().min(1).describe("The fact as the customer would say it."),
    value: z.union([Scalar, z.array(z.union([z.string(), z.number(), z.boolean()]))]).describe("The value an agent needs (e.g. an invoice number, a document reference, or the list of items to return)."),
    param: z.string().optional().describe("Operation parameter this fact supplies, when it does."),
    disclose_when: z
      .array(z.string().min(1))
      .min(1)
      .describe("Topics (keywords) that, when the agent asks about them, make the customer disclose the fact."),
  })
  .strict()
  .describe("Something only the customer knows and discloses only when asked.");
export type PrivateFact = z.infer<typeof PrivateFact>;

export const Scenario = z
  .object({
    persona: z.string().min(1).describe("Who the customer is and how they talk."),
    opening_request: z.string().min(1).describe("First message of the customer."),
    private_facts: z.array(PrivateFact).default([]).describe("Facts the customer discloses only when asked."),
    preferences: z.array(z.object({ id: z.string().describe("Preference id."), statement: z.string().describe("The preference as the customer states it.") }).strict()).default([]).describe("Requirements of the customer that checks may enforce."),
    permitted_actions: z.array(z.string()).default([]).describe("Customer-side operations the simulator may perform (e.g. approve a proposal)."),
    approves: z
      .array(z.object({ kind: z.string().describe("Proposal kind."), terms: z.record(z.string(), Scalar).describe("Exact term values the customer accepts.") }).strict())
      .default([])
      .describe("Proposals the customer will approve when asked: only these exact terms."),
    renewals: z
      .array(
        z
          .object({
            kind: z.string().describe("Proposal kind the correction follows."),
            param: z.string().describe("The term (a private fact's parameter) the customer corrects."),
            value: Scalar.describe("The corrected value; from then on the fact has this value."),
            statement: z.string().min(1).describe("What the customer says right after approving."),
          })
          .strict(),
      )
      .default([])
      .describe("Terms the customer changes after approving them (an amount corrected): right after approving a proposal of `kind` whose `param` differs from `value`, the customer says `statement`; the new terms need a new proposal and a new approval (`approves` lists both)."),
  })
  .strict();
export type Scenario = z.infer<typeof Scenario>;

export const PlanStep = z
  .object({
    step: z.number().int().min(1).describe("Position in the plan."),
    actor: z.enum(["agent", "customer"]).describe("Who acts."),
    operation: z.string().describe("Operation name, `ask` (elicit a fact) or `wait`."),
    args: z.record(z.string(), z.unknown()).default({}).describe("Arguments of the call."),
    workflow: z.string().nullable().describe("Workflow id the step belongs to."),
    sop_step: z.string().nullable().describe("SOP step id it realises."),
    unit: z.number().int().min(0).optional().describe("Index into the task's `workflows` of the piece of work the step belongs to (a task may carry out one workflow on several rows); absent: the first piece of that workflow."),
    why: z.string().describe("The rule or step that makes it necessary."),
  })
  .strict();
export type PlanStep = z.infer<typeof PlanStep>;

/**
 * The piece of work (index into a task's `workflows`) a plan step or decision belongs to: its
 * `unit`, or the first piece of its workflow when absent (-1 for a step of no workflow).
 */
export function unitIndex(item: { workflow: string | null; unit?: number | undefined }, workflows: readonly string[]): number {
  return item.unit ?? (item.workflow === null ? -1 : workflows.indexOf(item.workflow));
}

export const DIFFICULTIES = ["easy", "medium", "hard", "expert"] as const;

/** A task: what the agent must achieve, from what state, with which customer, judged how. */
export const Task = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).describe("Task id, unique in the domain."),
    domain: Slug.describe("Domain id."),
    title: z.string().min(1).describe("Short title for reviewers."),
    objective: z.string().min(1).describe("What a successful episode achieves, stated for reviewers."),
    workflows: z.array(z.string()).min(1).max(12).describe("The pieces of work the task combines, in order: a workflow id each (the same workflow again for another row)."),
    as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe("Business date of the task; selects the applicable document versions."),
    customer_id: z.string().describe("Key of the customer the task is about (protection checks spare only their objects)."),
    initial_state: z.array(OverlayChange).default([]).describe("Overlay applied to the domain's initial database for this task."),
    scheduled_events: z.array(ScheduledEvent).default([]).describe("Task-specific events in addition to the world's."),
    scenario: Scenario.describe("The simulated customer."),
    checks: z
      .object({
        goal: z.array(AcceptanceCheck).min(1).describe("The requested outcome was reached."),
        process: z.array(AcceptanceCheck).default([]).describe("The way there obeyed the rules."),
        protection: z.array(AcceptanceCheck).default([]).describe("Nothing protected was touched."),
      })
      .strict()
      .describe("Acceptance checks in three groups; strict success needs all of them."),
    reference_plan: z.array(PlanStep).min(1).describe("One correct way to solve the task."),
    decisions: z
      .array(
        z
          .object({
            workflow: z.string().describe("Workflow id."),
            unit: z.number().int().min(0).optional().describe("Index into the task's `workflows` of the piece of work that took the decision; absent: the first piece of that workflow."),
            decision: z.string().describe("Decision id inside the workflow."),
            at_step: z.string().describe("Step id the decision is taken at."),
            when: z.string().describe("The branch's condition as written."),
            held: z.boolean().describe("Whether the condition held on the task's state and the customer's facts when the decision was taken."),
            operations: z.array(z.string()).describe("Operations the branch's outcome names: done when it held, not done otherwise."),
            outdated: z
              .object({
                document: z.string().describe("Document id of the version not in force."),
                version: z.string().describe("That version."),
                clause: z.string().describe("The clause id, the same in both versions."),
                value: z.number().describe("The number that version states in place of the condition's."),
              })
              .strict()
              .optional()
              .describe("A version not in force whose value of the condition's number would give the other verdict: a version trap."),
          })
          .strict(),
      )
      .default([])
      .describe("Each decision branch the designer evaluated (condition language, sources/README.md), and whether it held: the branch the document requires."),
    documents: z.object({ relevant: z.array(z.string()).describe("Applicable documents."), distractors: z.array(z.string()).describe("Superseded or out-of-scope versions (`id@version`).") }).strict().describe("Document ids that apply, and versions that look relevant but must not be followed."),
    difficulty: z.enum(DIFFICULTIES).nullable().default(null).describe("Label from the probe panel; null until calibrated."),
    max_turns: z.number().int().min(1).default(60).describe("Upper bound of agent turns in an episode."),
  })
  .strict()
  .describe("A benchmark task.");
export type Task = z.infer<typeof Task>;
