import { z } from "zod";
import { Slug } from "./provenance.js";

const Identifier = z.string().regex(/^[a-z_][a-z0-9_]*$/, "must be a lowercase SQL identifier (letters, digits, '_')");
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** Value → the words a customer uses for it. */
const ValueLabels = z.record(z.string().min(1), z.string().min(1).max(120));
const ValueUnit = z.string().min(1).max(20);

export const Column = z
  .object({
    name: Identifier.describe("Column name."),
    type: z.enum(["text", "integer", "real", "boolean"]).describe("SQLite storage type; booleans are stored as 0/1."),
    nullable: z.boolean().default(false).describe("Whether NULL is allowed."),
    references: z.string().regex(/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/).optional().describe("Foreign key `table.column`."),
    hidden: z.boolean().default(false).describe("Hidden from agents (not returned by the query tool); a test of what the documents alone must convey."),
    description: z.string().min(1).describe("What the column means, in business terms."),
    labels: ValueLabels.optional().describe("How people say this column's values: value → words (e.g. `client_request: we asked for it`). A parameter of the same name without labels of its own uses them."),
    unit: ValueUnit.optional().describe("Unit of this column's numbers (e.g. `mg/L`). A parameter of the same name without a unit of its own uses it."),
  })
  .strict();
export type Column = z.infer<typeof Column>;

/** How one column of generated rows gets its value. Every generator draws from the domain's seeded stream. */
export const FieldGenerator = z.union([
  z.object({ seq: z.string().describe("Pattern with `{n}` or `{n:4}` (zero-padded) for the row number, e.g. `PAY-{n:5}`.") }).strict(),
  z.object({ choice: z.array(Scalar).min(1).describe("Values to pick from."), weights: z.array(z.number().positive()).optional().describe("Relative weight of each value.") }).strict().describe("Pick one value (weighted when weights are given)."),
  z.object({ int: z.tuple([z.number().int(), z.number().int()]).describe("[min, max], both included."), step: z.number().int().positive().default(1).describe("Values are min + k·step.") }).strict().describe("Whole number in [min, max] on a step."),
  z.object({ real: z.tuple([z.number(), z.number()]).describe("[min, max]."), decimals: z.number().int().min(0).max(6).default(2).describe("Digits after the point.") }).strict().describe("Decimal number in [min, max]."),
  z.object({ faker: z.string().regex(/^[a-zA-Z]+\.[a-zA-Z]+$/).describe("Faker method path, e.g. `company.name`.") }).strict(),
  z.object({ ref: z.string().regex(/^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/).describe("Pick an existing value of `table.column`.") }).strict(),
  z.object({ const: Scalar.describe("The same value for every row.") }).strict(),
]);
export type FieldGenerator = z.infer<typeof FieldGenerator>;

export const Table = z
  .object({
    name: Identifier.describe("Table name."),
    description: z.string().min(1).describe("What a row of the table is, in business terms."),
    primary_key: Identifier.describe("Primary-key column. With `key_columns`, the row-key column the runtime keeps (the key columns' values as a JSON array)."),
    key_columns: z
      .array(Identifier)
      .min(2)
      .optional()
      .describe("Composite key: these columns identify a row together; `primary_key` then names the text column the runtime computes from them (written `primary_key: [a, b]` in world.yaml)."),
    ordered: z
      .object({
        parent: Identifier.describe("Column holding the key of the parent row (e.g. `order_id`)."),
        position: Identifier.describe("Integer column the runtime keeps: 1, 2, 3… per parent in insertion order, never reused."),
      })
      .strict()
      .optional()
      .describe("Ordered child rows: rows of one parent are numbered in `position` and listed in that order."),
    owner_column: Identifier.optional().describe("Column holding the customer key a row belongs to; protection checks spare only the task customer's rows."),
    columns: z.array(Column).min(1).describe("Typed columns of the table."),
    rows: z.array(z.record(z.string(), Scalar)).default([]).describe("Fixed rows, inserted before generated ones (named records tasks can point at)."),
    generate: z
      .object({
        count: z.number().int().min(0).max(100_000).describe("Rows to generate."),
        fields: z.record(z.string(), FieldGenerator).describe("Generator per column; columns without one must be nullable."),
      })
      .strict()
      .optional()
      .describe("Seeded synthetic rows added after the fixed rows."),
  })
  .strict();
export type Table = z.infer<typeof Table>;

/** The items of a list-valued parameter: scalars of one type. */
export const ParamItems = z
  .object({
    type: z.enum(["string", "integer", "number", "boolean"]).describe("JSON type of every item."),
    enum: z.array(z.union([z.string(), z.number()])).optional().describe("The only accepted item values."),
    pattern: z.string().optional().describe("Regular expression every string item must match."),
  })
  .strict();

/** Parameter of an operation (a JSON-Schema subset every provider's tool calling accepts). */
export const Param = z
  .object({
    type: z.enum(["string", "integer", "number", "boolean", "array"]).describe("JSON type of the argument; `array` is a list of scalars (`items`), bound to SQL as JSON text (read it with `json_each(:name)`)."),
    items: ParamItems.optional().describe("For `type: array`: the type of every item."),
    max_items: z.number().int().positive().optional().describe("For `type: array`: the longest accepted list (default 50)."),
    description: z.string().min(1).describe("Shown to the agent in the tool description."),
    required: z.boolean().default(true).describe("Whether the argument must be given."),
    enum: z.array(z.union([z.string(), z.number()])).optional().describe("The only accepted values."),
    minimum: z.number().optional().describe("Smallest accepted number."),
    maximum: z.number().optional().describe("Largest accepted number."),
    pattern: z.string().optional().describe("Regular expression a string must match."),
    labels: ValueLabels.optional().describe("How customers say the values: value → words (e.g. `client_request: we asked for it`); the customer states a value in its words, tool specs list them, agents map them back."),
    unit: ValueUnit.optional().describe("Unit of the number (e.g. `mg/L`); the customer states it after the number and tool specs name it."),
    max_length: z.number().int().positive().default(200).describe("Longest accepted string."),
    source: z
      .enum(["state", "customer", "agent"])
      .default("state")
      .describe("Where a correct value comes from: `state` (looked up with tools), `customer` (a fact only the customer knows and must be asked for), `agent` (the agent's own decision, e.g. a note)."),
  })
  .strict()
  .refine((p) => (p.type === "array") === (p.items !== undefined), { message: "a parameter of type array needs `items`, and only an array takes `items`" });
export type Param = z.infer<typeof Param>;

/**
 * SQL in a world model is SQLite with named parameters only: `:name` binds an argument of the call,
 * plus `:now` (logical minute), `:actor` and `:call` (event index). Agent input never becomes SQL text.
 */
export const SqlText = z.string().min(1).describe("SQLite statement with named parameters (`:param`, `:now`, `:actor`, `:call`).");

export const Precondition = z
  .object({
    id: z.string().min(1).describe("Precondition id, named in rejection reasons."),
    sql: SqlText.describe("A SELECT returning one row whose first column is truthy when the precondition holds."),
    message: z.string().min(1).describe("Reason returned to the agent when the precondition fails."),
    rule: z.string().optional().describe("Formal rule id the precondition enforces."),
  })
  .strict();
export type Precondition = z.infer<typeof Precondition>;

export const Effect = z
  .object({
    sql: SqlText.describe("INSERT, UPDATE or DELETE applied in the call's transaction."),
  })
  .strict();

export const ApprovalBinding = z
  .object({
    kind: z.string().min(1).describe("Proposal kind, e.g. `payment_release`."),
    terms: z.array(z.string()).min(1).describe("Parameter names whose values form the proposal's terms; approval binds to these exact values."),
  })
  .strict();

export const Operation = z
  .object({
    name: Identifier.describe("Tool name the agent (or the customer simulator) calls."),
    description: z.string().min(1).describe("Tool description shown to the caller."),
    side: z.enum(["agent", "customer"]).describe("`agent`: a tool of the agent; `customer`: an action of the customer simulator."),
    access: z.enum(["read", "write"]).describe("Read operations change nothing; write operations run effects."),
    params: z.record(z.string(), Param).default({}).describe("Arguments by name."),
    preconditions: z.array(Precondition).default([]).describe("All must hold, or the call is rejected with no side effect."),
    effects: z.array(Effect).default([]).describe("State changes, applied in one transaction in this order."),
    result: z
      .object({
        sql: SqlText,
        many: z.boolean().default(false).describe("Return every row (a list) instead of the first row."),
        json: z.array(z.string()).optional().describe("Result columns holding JSON text (from `json_group_array`, `json_object`): returned parsed, as lists and objects."),
      })
      .strict()
      .nullable()
      .default(null)
      .describe("SELECT whose rows are returned to the caller after the effects (one row, or a list when `many`)."),
    proposes: ApprovalBinding.optional().describe("The call records a proposal of this kind with these terms and returns its `proposal_id`."),
    approves: z.string().optional().describe("Proposal kind this operation approves; takes a `proposal_id` parameter."),
    requires_approval: ApprovalBinding.optional().describe("An approved, unconsumed proposal of this kind with exactly these terms must exist; the call consumes it."),
    rules: z.array(z.string()).default([]).describe("Formal rule ids this operation is governed by."),
  })
  .strict();
export type Operation = z.infer<typeof Operation>;

export const ScheduledEvent = z
  .object({
    id: Identifier.describe("Event id."),
    description: z.string().min(1).describe("What happens, in business terms."),
    at: z.number().int().min(0).optional().describe("Logical minute the event fires at."),
    after: z
      .object({
        operation: z.string().optional().describe("Fires `delay` minutes after this operation executes."),
        event: z.string().optional().describe("Fires `delay` minutes after this other event fires."),
        delay: z.number().int().min(0).describe("Minutes after the trigger."),
      })
      .strict()
      .optional()
      .describe("Fire relative to an operation or another event."),
    effects: z.array(Effect).min(1).describe("State changes the event applies when it fires."),
    rule: z.string().optional().describe("Formal rule id the event implements (e.g. a quote expiry)."),
  })
  .strict()
  .refine((e) => (e.at === undefined) !== (e.after === undefined), { message: "give exactly one of `at` or `after`" });
export type ScheduledEvent = z.infer<typeof ScheduledEvent>;

/** A machine-checkable row condition, evaluated in JS on changed rows (no SQL needed). */
export const RowPredicate = z
  .object({
    column: z.string().describe("Column of the row."),
    op: z.enum(["=", "!=", "<", "<=", ">", ">=", "in", "not_in", "is_null", "not_null"]).describe("Comparison."),
    value: z.union([Scalar, z.array(Scalar)]).optional().describe("Literal to compare with."),
    other_column: z.string().optional().describe("Compare with another column of the same row instead of a literal."),
  })
  .strict();
export type RowPredicate = z.infer<typeof RowPredicate>;

/** A sum over rows: per group of `group_by` values, the total of `column` compared with a fixed bound or a column of another table's row. */
export const InvariantTotal = z
  .object({
    column: z.string().min(1).describe("Numeric column summed over the matching rows of a group."),
    group_by: z.array(z.string().min(1)).default([]).describe("Columns whose values form a group, one total per group (one total over all matching rows when empty)."),
    op: z.enum(["<", "<=", ">", ">="]).describe("How each total compares with its bound."),
    value: z.number().optional().describe("A fixed bound."),
    limit: z
      .object({ table: z.string().min(1).describe("Table holding the bound."), column: z.string().min(1).describe("Numeric column of that table.") })
      .strict()
      .optional()
      .describe("The bound is this column of the row of `table` whose primary key is the group's value (exactly one `group_by` column)."),
  })
  .strict()
  .refine((t) => (t.value === undefined) !== (t.limit === undefined), { message: "give exactly one of `value` and `limit`" });
export type InvariantTotal = z.infer<typeof InvariantTotal>;

export const FormalRule = z
  .object({
    id: z.string().min(1).describe("Formal rule id, e.g. `R-FX-QUOTE-EXPIRY`."),
    clause: z
      .object({ document: z.string().min(1).describe("Document id."), clause: z.string().min(1).describe("Clause id anchored in that document.") })
      .strict()
      .describe("The anchored clause (document id + clause id) that states the rule."),
    kind: z.enum(["precondition", "approval", "invariant", "deadline", "protection", "eligibility", "ordering"]).describe("What sort of constraint the rule is."),
    description: z.string().min(1).describe("The rule in one sentence."),
    invariant: z
      .object({
        table: z.string().describe("Table the invariant is about."),
        where: z.array(RowPredicate).default([]).describe("Rows it applies to (all rows when empty)."),
        require: z.array(RowPredicate).default([]).describe("What every such row must satisfy."),
        total: InvariantTotal.optional().describe("A sum over the rows: per group, the total of a column stays within a bound."),
      })
      .strict()
      .refine((i) => i.require.length > 0 || i.total !== undefined, { message: "an invariant needs `require` (per row) or `total` (a sum over rows)" })
      .optional()
      .describe("For `invariant` rules: rows of `table` matching `where` must satisfy `require`, and their `total` stay within its bound, after every state change."),
    value: z.number().optional().describe("The rule's threshold or amount (e.g. 50000), which a `limit` precondition can compare with (`{ rule: <id> }`)."),
    unit: z.string().min(1).optional().describe("Unit of `value` as the clause states it (e.g. `EUR`, `minutes`)."),
  })
  .strict();
export type FormalRule = z.infer<typeof FormalRule>;

/** `sources/<domain>/world.yaml`: the executable world of a domain. */
export const WorldModel = z
  .object({
    domain: Slug.describe("Domain id."),
    customer_table: Identifier.describe("Table whose rows are the customers tasks are about."),
    tables: z.array(Table).min(1).describe("The state."),
    operations: z.array(Operation).min(1).describe("Agent tools and customer actions."),
    events: z.array(ScheduledEvent).default([]).describe("Scheduled world events."),
    rules: z.array(FormalRule).default([]).describe("Formal rules with the clause that states each."),
  })
  .strict()
  .describe("Declarative world: tables, generators, operations, scheduled events and formal rules.");
export type WorldModel = z.infer<typeof WorldModel>;
