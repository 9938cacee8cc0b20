import { z } from "zod";
import { CheckGroup } from "../schemas/acceptance-check.js";

/** A clause of one document version, quoted from the release's `docs/*.md` by its line numbers. */
export const QuotedClause = z
  .object({
    document: z.string().describe("Document id."),
    version: z.string().describe("Document version."),
    line_start: z.number().int().min(1).describe("First line (1-based, in the document file)."),
    line_end: z.number().int().min(1).describe("Last line (inclusive)."),
    clause: z.string().nullable().describe("Anchored clause id, when the text has one."),
    text: z.string().nullable().describe("The lines quoted from the document version; null when the release holds no such version or lines."),
  })
  .strict();
export type QuotedClause = z.infer<typeof QuotedClause>;

/** One column a row change altered. */
export const ColumnChange = z.object({ column: z.string(), before: z.unknown(), after: z.unknown() }).strict();

/** One row an event changed: only the columns that differ (every column for an insert or delete). */
export const RowChangeView = z
  .object({
    table: z.string(),
    key: z.union([z.string(), z.number()]),
    op: z.enum(["insert", "update", "delete"]),
    columns: z.array(ColumnChange),
  })
  .strict();
export type RowChangeView = z.infer<typeof RowChangeView>;

/** One check's verdict on one trace, with the event that decided it. */
export const Verdict = z.object({ passed: z.boolean(), reason: z.string(), event: z.number().int().nullable() }).strict();
export type Verdict = z.infer<typeof Verdict>;

/** A violation trace aimed at a check, and what the check said about it. */
export const ViolationView = z
  .object({
    file: z.string().describe("Release-relative path of the violation trace."),
    operator: z.string().describe("Mutation operator."),
    description: z.string().nullable().describe("What the mutation changed (from the validation report)."),
    verdict: Verdict.describe("The targeted check re-run on the violation trace now."),
  })
  .strict();
export type ViolationView = z.infer<typeof ViolationView>;

/** Where a check comes from, with the quoted text. */
export const CheckSource = z.union([
  z.object({ source: z.literal("rule"), rule: z.string(), clause: QuotedClause, outdated: QuotedClause.nullable() }).strict(),
  z.object({ source: z.literal("customer"), requirement: z.string(), text: z.string().nullable().describe("The scenario's statement of the requirement; null when the scenario states none under that id.") }).strict(),
]);

/** One acceptance check of the task as a reviewer reads it. */
export const CheckView = z
  .object({
    id: z.string(),
    group: CheckGroup,
    kind: z.string(),
    description: z.string(),
    provenance: CheckSource,
    verdict: Verdict.describe("The check on the trace shown (golden or episode)."),
    violations: z.array(ViolationView).describe("Violation traces of the release that target this check."),
  })
  .strict();
export type CheckView = z.infer<typeof CheckView>;

/** One event of the trace shown, with the plan step, clause and checks it relates to. */
export const EventView = z
  .object({
    index: z.number().int().min(1),
    time: z.number().int(),
    actor: z.string(),
    kind: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
    status: z.string(),
    text: z.string().nullable().describe("Dialogue text."),
    reason: z.string().nullable().describe("Why a call was rejected or errored."),
    result: z.string().nullable().describe("The result as canonical-ish JSON, whole."),
    result_short: z.string().nullable().describe("The result cut to 120 characters."),
    facts: z.array(z.string()).describe("Private facts this event disclosed."),
    changes: z.array(RowChangeView),
    plan: z
      .object({ step: z.number().int(), why: z.string(), workflow: z.string().nullable(), sop_step: z.string().nullable() })
      .strict()
      .nullable()
      .describe("The reference plan step this event carries out, when it carries one out."),
    clause: QuotedClause.nullable().describe("The SOP step's clause the plan step follows, when provenance exists."),
    checks: z.array(z.string()).describe("Ids of checks this event decided on the trace shown."),
    failed: z.array(z.object({ check: z.string(), reason: z.string() }).strict()).describe("Checks that failed and were decided at this event (their reasons)."),
  })
  .strict();
export type EventView = z.infer<typeof EventView>;

/** A document version the task names, with its scope and period. */
export const DocumentView = z
  .object({
    key: z.string().describe("`id@version`."),
    role: z.enum(["in_force", "distractor"]),
    title: z.string().nullable().describe("Null when the release holds no such version."),
    kind: z.string().nullable(),
    effective_from: z.string().nullable(),
    effective_to: z.string().nullable(),
    scope: z.object({ segments: z.array(z.string()), regions: z.array(z.string()), products: z.array(z.string()), note: z.string().nullable() }).strict().nullable(),
  })
  .strict();
export type DocumentView = z.infer<typeof DocumentView>;

/** Everything `synth show` prints about one task and one trace of it. */
export const TaskView = z
  .object({
    release: z.object({ name: z.string(), version: z.string(), root_hash: z.string() }).strict(),
    trace: z
      .union([
        z.object({ kind: z.literal("golden"), file: z.string() }).strict(),
        z.object({ kind: z.literal("episode"), run_dir: z.string(), episode: z.string(), file: z.string(), agent: z.string(), condition: z.string(), strict_success: z.boolean() }).strict(),
      ])
      .describe("Which trace the events and verdicts are of."),
    task: z
      .object({
        id: z.string(),
        domain: z.string(),
        title: z.string(),
        objective: z.string(),
        as_of: z.string(),
        customer_id: z.string(),
        difficulty: z.string().nullable(),
        persona: z.string(),
        opening_request: z.string(),
        private_facts: z.array(z.object({ id: z.string(), statement: z.string(), value: z.unknown(), hidden_from_agent: z.literal(true), disclose_when: z.array(z.string()) }).strict()),
        preferences: z.array(z.object({ id: z.string(), statement: z.string() }).strict()),
        approvals: z.array(z.object({ kind: z.string(), terms: z.record(z.string(), z.unknown()) }).strict()),
        scheduled_events: z.array(z.record(z.string(), z.unknown())),
      })
      .strict(),
    documents: z.array(DocumentView),
    events: z.array(EventView),
    checks: z.array(CheckView).describe("Goal, then process, then protection checks, in task order."),
  })
  .strict()
  .describe("A task, one of its traces, its checks and the clauses behind them, for review.");
export type TaskView = z.infer<typeof TaskView>;
