import { z } from "zod";
import { Provenance, Slug, IsoDate } from "./provenance.js";
import { DocumentScope, DocumentKind } from "./document-front-matter.js";

/** Whether a document version (and so each of its clauses) applies on a date to a customer. */
export const ApplicabilityStatus = z
  .enum(["current", "superseded", "out_of_scope", "not_yet_effective"])
  .describe("`current`: in force and in scope; `superseded`: replaced or expired; `out_of_scope`: covers no customer in question; `not_yet_effective`: starts later.");
export type ApplicabilityStatus = z.infer<typeof ApplicabilityStatus>;

export const SopStep = z
  .object({
    id: z.string().min(1).describe("Step id inside its workflow, e.g. `s3`."),
    number: z.number().int().min(1).describe("Step number as printed in the document."),
    text: z.string().min(1).describe("The step as written."),
    actor: z.enum(["agent", "customer"]).describe("Who performs the step."),
    operation: z.string().nullable().describe("World-model operation the step names; null for a step without one (e.g. 'inform the customer')."),
    requires: z.array(z.string()).default([]).describe("Step ids that must be completed before this one (dependency order)."),
    provenance: Provenance,
  })
  .strict()
  .describe("One step of a workflow.");
export type SopStep = z.infer<typeof SopStep>;

export const SopBranch = z
  .object({
    when: z.string().min(1).describe("Condition as written (a table row's conditions or the `If` clause)."),
    condition: z.string().nullable().default(null).describe("Machine-checkable form over world state, when the extractor could derive one (SQL boolean expression)."),
    goto: z.string().nullable().describe("Step id to continue at; null ends the workflow."),
    outcome: z.string().min(1).describe("What happens on this branch, as written."),
    rule: z.string().nullable().default(null).describe("Rule id the branch applies, if any."),
    operations: z.array(z.string()).default([]).describe("World-model operations the outcome names (e.g. a proposal made on this branch)."),
  })
  .strict();
export type SopBranch = z.infer<typeof SopBranch>;

export const SopDecision = z
  .object({
    id: z.string().min(1).describe("Decision id inside its workflow, e.g. `d1`."),
    at_step: z.string().describe("Step id after which the decision is taken."),
    question: z.string().min(1).describe("What is being decided."),
    branches: z.array(SopBranch).min(1).describe("Mutually exclusive branches in the order written."),
    provenance: Provenance,
  })
  .strict()
  .describe("A decision point (decision table or If/then item).");
export type SopDecision = z.infer<typeof SopDecision>;

export const SopTransition = z
  .object({
    from: z.string().describe("Step id."),
    to: z.string().nullable().describe("Step id, or null for the end of the workflow."),
    kind: z.enum(["next", "branch", "return"]).describe("`next`: sequential; `branch`: via a decision; `return`: back to an earlier step."),
    when: z.string().nullable().default(null).describe("Condition as written, for branch and return transitions."),
  })
  .strict();
export type SopTransition = z.infer<typeof SopTransition>;

export const SopWorkflow = z
  .object({
    id: Slug.describe("Workflow id, unique in the domain."),
    title: z.string().min(1).describe("Procedure title as written."),
    document: z.string().describe("Document id the procedure comes from."),
    version: z.string().describe("Document version."),
    steps: z.array(SopStep).min(1).describe("Steps in document order."),
    decisions: z.array(SopDecision).default([]).describe("Decision points."),
    transitions: z.array(SopTransition).default([]).describe("Every edge between steps."),
    return_paths: z.array(SopTransition).default([]).describe("Transitions of kind `return`, listed separately for review."),
    resources: z.array(z.string()).default([]).describe("World-model tables the workflow reads or writes (shared resources link workflows)."),
    rules: z.array(z.string()).default([]).describe("Rule ids the workflow's steps or decisions apply."),
    provenance: Provenance,
  })
  .strict()
  .describe("A procedure: ordered steps, decisions, transitions and return paths.");
export type SopWorkflow = z.infer<typeof SopWorkflow>;

export const SopRule = z
  .object({
    id: z.string().min(1).describe("Clause id as anchored in the document, e.g. `FX-3.1`."),
    statement: z.string().min(1).describe("The clause as written."),
    document: z.string().describe("Document id."),
    version: z.string().describe("Document version."),
    effective_from: IsoDate.describe("First day the clause applies (its document's)."),
    effective_to: IsoDate.nullable().describe("Last day it applies; null while in force."),
    scope: DocumentScope,
    affected_objects: z.array(z.string()).default([]).describe("Tables or operations the rule constrains."),
    prerequisites: z.array(z.string()).default([]).describe("Conditions that must hold before the action, as written."),
    action: z.string().describe("What the rule requires or forbids."),
    exceptions: z.array(z.string()).default([]).describe("Exceptions as written."),
    formal_rule: z.string().nullable().default(null).describe("World-model formal rule id that enforces this clause, if any."),
    status: ApplicabilityStatus.describe("Applicability on the domain's as-of date for its default scope."),
    provenance: Provenance,
  })
  .strict()
  .describe("A business rule with its scope, effective period and provenance.");
export type SopRule = z.infer<typeof SopRule>;

export const SopProblem = z
  .object({
    code: z.string().describe("Stable problem code, e.g. `SOP_UNKNOWN_OPERATION`."),
    message: z.string().describe("What is wrong or unclear."),
    document: z.string().nullable().describe("Document id, when the problem is inside one."),
    file: z.string().nullable().describe("File relative to the domain folder."),
    line: z.number().int().nullable().describe("1-based line in that file."),
    severity: z.enum(["error", "review"]).describe("`error`: the input is wrong; `review`: meaning could not be established and needs a person."),
  })
  .strict();
export type SopProblem = z.infer<typeof SopProblem>;

export const SopDocument = z
  .object({
    id: Slug.describe("Document id."),
    version: z.string().describe("Document version."),
    title: z.string().describe("Title as printed."),
    kind: DocumentKind,
    file: z.string().describe("File relative to the domain folder."),
    effective_from: IsoDate.describe("First day the version applies."),
    effective_to: IsoDate.nullable().describe("Last day the version applies; null while in force."),
    scope: DocumentScope,
    supersedes: z.array(z.string()).default([]).describe("Documents this version replaces (`id` or `id@version`)."),
    status: ApplicabilityStatus.describe("Applicability on the domain's as-of date for its default scope."),
    status_reason: z.string().describe("Why the version has that status, in words."),
  })
  .strict()
  .describe("One version of one reference document, with its applicability.");
export type SopDocument = z.infer<typeof SopDocument>;

/** `sop/<domain>/`: everything extracted from the domain's documents. */
export const Sop = z
  .object({
    domain: Slug.describe("Domain id."),
    strategy: z.enum(["deterministic", "llm"]).describe("Which extractor produced the file."),
    sources_hash: z.string().describe("sha256 over the ingested documents; tells a rerun whether sources changed."),
    documents: z.array(SopDocument).default([]).describe("Every document version read, with its status (rule selection needs `supersedes`)."),
    workflows: z.array(SopWorkflow).describe("Procedures found in the documents."),
    rules: z.array(SopRule).describe("Rule clauses found in the documents, every version."),
    problems: z.array(SopProblem).describe("What could not be understood; reported, never guessed."),
  })
  .strict()
  .describe("Structured SOPs of a domain: workflows and rules with provenance.");
export type Sop = z.infer<typeof Sop>;
