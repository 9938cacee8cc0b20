import { z } from "zod";
import { ApprovalBinding, Column, FieldGenerator, FormalRule, Param, ScheduledEvent, SqlText } from "./world-model.js";
import { Slug } from "./provenance.js";

/**
 * `sources/<domain>/world.yaml` as a person writes it: the world model (world-model.ts) plus the
 * declarative shorthands that compile to its SQL (pipeline/world/expand-world.ts; every expansion
 * is documented in sources/README.md). A world written without shorthands is already in this form.
 */

const Identifier = z.string().regex(/^[a-z_][a-z0-9_]*$/, "must be a lowercase SQL identifier (letters, digits, '_')");
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * A value in a shorthand: a number, boolean or null is a literal; a string starting with `:` is a
 * parameter (`:amount`, `:now`, `:call`, `:actor`); any other string is a text literal.
 */
export const ShorthandValue = z.union([
  Scalar,
  z.object({ sql: z.string().min(1).describe("An SQL expression, written as is.") }).strict(),
  z.object({ column: Identifier.describe("A column: of the source row (`insert … from`) or of the row itself (`update`).") }).strict(),
  z.object({ key: z.string().min(1).describe("A new key from the call's event index, e.g. `RCL-{call:5}` → printf('RCL-%05d', :call).") }).strict(),
  z.object({ text: z.string().describe("A text literal, also one starting with `:`.") }).strict(),
]);
export type ShorthandValue = z.infer<typeof ShorthandValue>;

/** A condition on one column: a value (`=`), a list (`IN`), `{ not: value | list }`, null (`IS NULL`). */
export const ColumnCondition = z.union([Scalar, z.array(Scalar).min(1), z.object({ not: z.union([Scalar, z.array(Scalar).min(1)]) }).strict()]);
export type ColumnCondition = z.infer<typeof ColumnCondition>;

/** The other side of a numeric limit: a number, a column, a `:param`, or a formal rule's `value`. */
const LimitBound = z.union([z.number(), z.string().min(1), z.object({ rule: z.string().min(1).describe("Formal rule id whose `value` is the limit.") }).strict()]);

const Where = z.record(z.string(), ColumnCondition);

/** A precondition: raw `sql`, or exactly one shorthand (`exists`, `owned`, `in_state`, `limit`, `referenced`). */
export const PreconditionSource = z
  .object({
    id: z.string().min(1).describe("Precondition id, named in rejection reasons."),
    message: z.string().min(1).describe("Reason returned to the agent when the precondition fails."),
    rule: z.string().optional().describe("Formal rule id the precondition enforces."),
    sql: SqlText.optional().describe("A SELECT returning one row whose first column is truthy when the precondition holds."),
    exists: Identifier.optional().describe("Shorthand: the row of this table whose key is the call's parameter exists."),
    owned: Identifier.optional().describe("Shorthand: the row exists and its owner column holds the customer's key (parameter `customer`)."),
    in_state: Identifier.optional().describe("Shorthand: the row of this table meets every condition of `where`."),
    limit: Identifier.optional().describe("Shorthand: on the row of this table, `value` compares with the bound given as `above`, `at_least`, `below` or `at_most`."),
    referenced: Identifier.optional().describe("Shorthand: the row of this table references (column `via`) a row that meets `where` (and matches the columns of `same`)."),
    param: Identifier.optional().describe("Parameter holding the row's key (default: the key column's own name)."),
    customer: Identifier.optional().describe("`owned`: parameter holding the customer's key (default: the customer table's key column name)."),
    where: Where.optional().describe("`in_state`, `referenced`: conditions by column."),
    value: z.string().min(1).optional().describe("`limit`: the column or `:param` that is limited."),
    above: LimitBound.optional(),
    at_least: LimitBound.optional(),
    below: LimitBound.optional(),
    at_most: LimitBound.optional(),
    via: Identifier.optional().describe("`referenced`: the column of the row that references the other table."),
    same: z.array(Identifier).optional().describe("`referenced`: columns whose values the two rows share."),
  })
  .strict();
export type PreconditionSource = z.infer<typeof PreconditionSource>;

/** An effect: raw `sql`, `update` (set columns of the row) or `insert` (a row built from values). */
export const EffectSource = z
  .object({
    sql: SqlText.optional().describe("INSERT, UPDATE or DELETE applied in the call's transaction."),
    update: Identifier.optional().describe("Shorthand: set the columns of `set` on the row of this table whose key is the call's parameter."),
    set: z.record(z.string(), ShorthandValue).optional().describe("`update`: value by column."),
    insert: Identifier.optional().describe("Shorthand: insert a row into this table built from `values`."),
    values: z.record(z.string(), ShorthandValue).optional().describe("`insert`: value by column."),
    from: Identifier.optional().describe("`insert`: take `{ column: … }` values from the row of this table whose key is the call's parameter."),
    param: Identifier.optional().describe("Parameter holding the row's key (default: the key column's own name)."),
  })
  .strict();
export type EffectSource = z.infer<typeof EffectSource>;

/** A result: raw `sql`, or `table` + `columns` (the row by its key, the rows `by` a column, or `all` rows). */
export const ResultSource = z
  .object({
    sql: SqlText.optional(),
    many: z.boolean().optional().describe("Return every row (a list) instead of the first row; default true for `by` and `all`."),
    json: z.array(z.string().min(1)).optional().describe("Result columns holding JSON text (from `json_group_array`, `json_object`): returned parsed, as lists and objects."),
    table: Identifier.optional().describe("Shorthand: the table read."),
    columns: z.array(z.string().min(1)).min(1).optional().describe("Shorthand: the columns returned (a column name, or `expression AS name`)."),
    param: Identifier.optional().describe("Parameter holding the key (or the `by` value); default the column's own name."),
    by: Identifier.optional().describe("Return the rows whose column equals the parameter of that name (e.g. every payment of `client_id`)."),
    all: z.boolean().optional().describe("Return every row of the table."),
    order_by: z.array(z.string().min(1)).optional().describe("ORDER BY terms; an ordered table defaults to parent, position."),
  })
  .strict();
export type ResultSource = z.infer<typeof ResultSource>;

/** The status-transition shorthand of an operation: one precondition (first) and one effect (last). */
export const TransitionSource = z
  .object({
    table: Identifier.describe("Table of the row that changes state."),
    column: Identifier.default("status").describe("State column (default `status`)."),
    from: z.union([Scalar, z.array(Scalar).min(1)]).describe("Allowed state(s) before the call."),
    to: Scalar.describe("State after the call."),
    message: z.string().min(1).describe("Refusal when the row is not in an allowed state."),
    id: z.string().min(1).optional().describe("Precondition id (default `<column>_<from>`)."),
    rule: z.string().optional().describe("Formal rule id the precondition enforces."),
    param: Identifier.optional().describe("Parameter holding the row's key (default: the key column's own name)."),
    set: z.record(z.string(), ShorthandValue).optional().describe("Other columns set in the same UPDATE (e.g. `released_at: :now`)."),
  })
  .strict();
export type TransitionSource = z.infer<typeof TransitionSource>;

export const OperationSource = z
  .object({
    name: Identifier,
    description: z.string().min(1),
    side: z.enum(["agent", "customer"]),
    access: z.enum(["read", "write"]),
    params: z.record(z.string(), Param).default({}),
    transition: TransitionSource.optional().describe("Shorthand: a status transition (its precondition first, its UPDATE last)."),
    preconditions: z.array(PreconditionSource).default([]),
    effects: z.array(EffectSource).default([]),
    result: ResultSource.nullable().default(null),
    proposes: ApprovalBinding.optional(),
    approves: z.string().optional(),
    requires_approval: ApprovalBinding.optional(),
    rules: z.array(z.string()).default([]),
  })
  .strict();
export type OperationSource = z.infer<typeof OperationSource>;

export const TableSource = z
  .object({
    name: Identifier,
    description: z.string().min(1),
    primary_key: z.union([Identifier, z.array(Identifier).min(2)]).describe("Key column, or the columns of a composite key."),
    key_columns: z.array(Identifier).min(2).optional(),
    ordered: z.object({ parent: Identifier, position: Identifier }).strict().optional(),
    owner_column: Identifier.optional(),
    columns: z.array(Column).min(1),
    rows: z.array(z.record(z.string(), Scalar)).default([]),
    generate: z.object({ count: z.number().int().min(0).max(100_000), fields: z.record(z.string(), FieldGenerator) }).strict().optional(),
  })
  .strict();
export type TableSource = z.infer<typeof TableSource>;

/** world.yaml as written: the world model's fields, with shorthands allowed in tables and operations. */
export const WorldSource = z
  .object({
    domain: Slug,
    customer_table: Identifier,
    tables: z.array(TableSource).min(1),
    operations: z.array(OperationSource).min(1),
    events: z.array(ScheduledEvent).default([]),
    rules: z.array(FormalRule).default([]),
  })
  .strict()
  .describe("world.yaml as written: the world model with its declarative shorthands (compiled to SQL on load).");
export type WorldSource = z.infer<typeof WorldSource>;
