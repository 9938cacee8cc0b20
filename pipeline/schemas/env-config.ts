import { z } from "zod";

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** What a tool's answer must look like; a simulator answer of another shape is refused and retried. */
export const ResultShape = z
  .union([
    z
      .object({
        kind: z.literal("rows").describe("The operation returns rows of its result statement."),
        many: z.boolean().describe("true: a list of rows; false: one row (or null when none matches)."),
        fields: z.array(z.string()).min(1).describe("The field names every row has, in order."),
      })
      .strict(),
    z.object({ kind: z.literal("none").describe("The operation returns nothing (null) when it executes.") }).strict(),
    z
      .object({
        kind: z.literal("object").describe("A standard tool's answer: an object with at least these fields."),
        fields: z.array(z.string()).describe("Fields the object must have."),
      })
      .strict(),
  ])
  .describe("The declared result shape of a tool.");
export type ResultShape = z.infer<typeof ResultShape>;

/** One tool of the agent, exactly as the evaluator's session offers it, with what its answer must look like. */
export const EnvTool = z
  .object({
    name: z.string().min(1).describe("Tool name as the agent calls it."),
    description: z.string().describe("Tool description shown to the agent."),
    parameters: z.record(z.string(), z.unknown()).describe("JSON Schema of the arguments, as bound to the agent's model."),
    kind: z
      .enum(["operation", "invoke", "query", "wait", "reference", "conversation"])
      .describe("operation: a business operation (answered by the simulator); invoke: invoke_capability, answered as the operation it names; query: the read-only SQL tool (answered by the simulator); wait: the clock (answered by the simulator); reference: the knowledge base and capability listings (answered from the release, they hold no state); conversation: send_message / finish (the customer and the evaluator)."),
    access: z.enum(["read", "write"]).nullable().describe("For an operation: whether it changes state; null otherwise."),
    preconditions: z
      .array(z.object({ id: z.string().describe("Precondition id."), message: z.string().describe("The refusal message the caller reads when it fails.") }).strict())
      .describe("When the operation refuses a call, and with which message (empty for tools that never refuse)."),
    effects: z.string().describe("How the call changes the state, in words (empty for reads)."),
    result: ResultShape.nullable().describe("The declared shape of the answer; null for conversation and reference tools, which the simulator never answers, and for invoke_capability (the named operation's shape applies)."),
    proposes: z.string().nullable().describe("Proposal kind the call records (it returns a proposal_id); null when none."),
    requires_approval: z.string().nullable().describe("Proposal kind that must have been approved with the same terms; null when none."),
  })
  .strict();
export type EnvTool = z.infer<typeof EnvTool>;

/** The rows of one table the simulator starts from (agent view: hidden columns left out). */
export const EnvTableRows = z
  .object({
    table: z.string().describe("Table name."),
    columns: z.array(z.string()).describe("Visible columns, in declaration order (hidden columns never appear)."),
    rows: z.array(z.record(z.string(), Scalar)).describe("The relevant rows, keyed by visible column, in primary-key order."),
    omitted: z.number().int().min(0).describe("Rows of the table in the task's initial state that are not listed (not relevant to the task, or over the per-table cap)."),
  })
  .strict();
export type EnvTableRows = z.infer<typeof EnvTableRows>;

/** The state description: what each table and column means, and how each operation changes them. */
export const StateDescription = z
  .object({
    tables: z
      .array(
        z
          .object({
            name: z.string().describe("Table name."),
            meaning: z.string().describe("What a row of the table is."),
            columns: z.array(z.object({ name: z.string().describe("Column name (visible columns only)."), meaning: z.string().describe("What the column means, with its type and unit.") }).strict()).describe("The visible columns."),
          })
          .strict(),
      )
      .describe("Every table of the agent view."),
    operations: z.array(z.object({ name: z.string().describe("Operation name."), changes: z.string().describe("How a successful call changes the state (or that it changes nothing).") }).strict()).describe("Every agent-side operation."),
    notes: z.string().describe("Anything else the simulator must know about the state (proposals, the logical clock)."),
  })
  .strict();
export type StateDescription = z.infer<typeof StateDescription>;

/**
 * Everything a language-model environment simulator needs to answer one task's tool calls — never
 * the task's checks, golden trace or reference plan, nor a hidden column's value. This is the
 * configuration as the simulator and the environment builder use it; on disk it is stored in two
 * parts (EnvConfigFile and EnvConfigShared, joined by env-config-parts.ts), so that what many tasks
 * share (the system prompt, the tools, the state description: hundreds of KB in a large domain) is
 * stored once per distinct content and not once per task.
 */
export const EnvConfig = z
  .object({
    domain: z.string().min(1).describe("Domain id."),
    task: z.string().min(1).describe("Task id."),
    strategy: z.enum(["deterministic", "llm"]).describe("How the system prompt and state description were written: rendered from the world model, or by the environment builder's model from the documents."),
    as_of: z.string().describe("Business date of the task."),
    system_prompt: z.string().min(1).describe("The simulator's system prompt: its role, the domain's behavioural rules (from the world's rules and the SOP), preconditions with their messages, and that hidden columns are never revealed."),
    tools: z.array(EnvTool).min(1).describe("The agent's tools, exactly as the evaluator's session offers them in direct mode, with their result shapes."),
    initial_state: z.array(EnvTableRows).describe("The task's relevant initial rows, rendered from the agent view (see row_rule)."),
    row_rule: z.string().describe("The rule that chose the rows of initial_state."),
    state_description: StateDescription.describe("What each table and column means and how each operation changes the state."),
  })
  .strict()
  .describe("Environment configuration of one task, for a language-model environment simulator.");
export type EnvConfig = z.infer<typeof EnvConfig>;

/**
 * `generated/<domain>/env-configs/shared/<sha256>.json` (and `domains/<d>/env-configs/shared/…` in a
 * release): the part of environment configurations that tasks share, filed under the sha256 of its
 * stable JSON, so that tasks with the same part name the same file.
 */
export const EnvConfigShared = z
  .object({
    system_prompt: EnvConfig.shape.system_prompt,
    tools: EnvConfig.shape.tools,
    state_description: EnvConfig.shape.state_description,
  })
  .strict()
  .describe("The shared part of environment configurations: system prompt, tools and state description, filed under the sha256 of its stable JSON.");
export type EnvConfigShared = z.infer<typeof EnvConfigShared>;

/**
 * `generated/<domain>/env-configs/<task>.json` (and `domains/<d>/env-configs/<task>.json` in a
 * release): one task's environment configuration as stored — its own part, and the sha256 of the
 * shared part it completes (EnvConfigShared).
 */
export const EnvConfigFile = z
  .object({
    domain: EnvConfig.shape.domain,
    task: EnvConfig.shape.task,
    strategy: EnvConfig.shape.strategy,
    as_of: EnvConfig.shape.as_of,
    shared: z
      .string()
      .regex(/^[0-9a-f]{64}$/, "a sha256 in lowercase hex")
      .describe("sha256 of the shared part's stable JSON: the file env-configs/shared/<sha256>.json beside this one."),
    initial_state: EnvConfig.shape.initial_state,
    row_rule: EnvConfig.shape.row_rule,
  })
  .strict()
  .describe("Environment configuration of one task as stored: the task's own part and the shared part it names.");
export type EnvConfigFile = z.infer<typeof EnvConfigFile>;
