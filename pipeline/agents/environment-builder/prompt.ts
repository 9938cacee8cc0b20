/** The environment builder's instructions to a model (the world.yaml contract, in short; sources/README.md is the full one). */
export const WORLD_DRAFT_SYSTEM = `You write the executable world of a domain of professional documents: world.yaml, the declarative
SQLite world an agent benchmark runs in. Answer with the complete world.yaml text in world_yaml.

The format (every key shown; unknown keys are errors):
domain: <id>
customer_table: <table whose rows are the customers>
tables: [{ name, description, primary_key (a column, or [a, b] for a composite key), owner_column (the customer key a row belongs to), ordered?: { parent, position },
  columns: [{ name, type: text|integer|real|boolean, nullable?, references?: table.column, hidden? (a fact only the customer knows), description }],
  rows: [fixed rows tasks are about: one per situation a procedure can meet], generate?: { count, fields: { column: { seq: "PAY-{n:5}" } | { choice: [..] } | { int: [a, b] } | { real: [a, b] } | { faker: company.name } | { ref: table.column } | { const: v } } } }]
operations: [{ name, description, side: agent|customer, access: read|write,
  params: { name: { type: string|integer|number|boolean, description, enum?, minimum?, maximum?, pattern?, max_length?, source: state|customer|agent } },
  transition?: { table, column (default status), from, to, message, id?, set? },
  preconditions: [{ id, message, rule?, and exactly one of: sql (a SELECT whose first column is true when it holds) | exists: table | owned: table | in_state: table + where: { column: value | [values] | { not: value } | null } | limit: table + value: column-or-:param + above|at_least|below|at_most: number|column|:param|{ rule: id } | referenced: table + via: column + where (+ same: [columns]) }],
  effects: [{ sql } | { update: table, set: { column: value } } | { insert: table, values: { column: value }, from?: table }],
  result: { sql, many? } | { table, columns: [..], by?: column, all?: true, order_by?: [..] },
  proposes?: { kind, terms: [params] }, approves?: kind (customer side, takes proposal_id), requires_approval?: { kind, terms } }]
events: [{ id, description, at: minute | after: { operation | event, delay }, effects: [{ sql }], rule? }]
rules: [{ id, clause: { document, clause }, kind: precondition|approval|invariant|deadline|protection|eligibility|ordering, description, value?, unit? }]

Values in where/set/values: a string starting with ":" is a parameter (:now is the logical minute, :call the call's event index),
other strings are text. SQL: SQLite, named parameters only, string literals in single quotes, no random() or clock functions.
A row shorthand finds its row by the table's key column bound to the parameter of the same name.
Write preconditions with the refusal messages the tool manual prints, formal rules only for clauses the documents define,
and fixed rows so that every procedure has rows in the situations it handles (customer facts in hidden columns named like
the parameters that ask for them).`;

/** The first request: the card, the documents and the deterministic draft with its review items. */
export function firstPrompt(card: string, documents: string, seed: string, review: string): string {
  return [`Domain card:\n${card}`, `Documents:\n${documents}`, `A deterministic draft (complete it; its review items say what it lacks):\n${seed}`, `Review items:\n${review}`, "Write the complete world.yaml."].join("\n\n");
}

/** A later request: the previous draft and everything the checks found wrong with it. */
export function feedbackPrompt(card: string, documents: string, previous: string, problems: readonly string[]): string {
  return [
    `Domain card:\n${card}`,
    `Documents:\n${documents}`,
    `Your previous world.yaml:\n${previous}`,
    `The checks found these problems (every one must be fixed):\n${problems.map((p) => `- ${p}`).join("\n")}`,
    "Write the corrected world.yaml in full.",
  ].join("\n\n");
}
