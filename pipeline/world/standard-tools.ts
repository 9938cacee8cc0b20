import { z } from "zod";
import type { CompiledWorld } from "./compile-world.js";
import { paramsJsonSchema } from "./args.js";
import { listDocuments, readDocument, searchDocuments, type KnowledgeDocument } from "./documents-tool.js";
import { QUERY_MAX_LENGTH, QUERY_ROW_LIMIT, queryDatabase, visibleSchema, type QueryConnection } from "./query-tool.js";
import { describeCapability, listCapabilities } from "./discovery-tools.js";
import type { StandardToolName } from "./tool-names.js";

/**
 * The tools every agent has besides the world's operations: the knowledge base, read-only SQL,
 * discovery of operations, and waiting. Each has a strict zod schema for its arguments and a JSON
 * Schema of them for binding to an LLM. All of them run through Episode.invoke, so they are traced.
 */

export interface ToolContext {
  world: CompiledWorld;
  query: QueryConnection;
  documents: readonly KnowledgeDocument[];
}

export interface StandardTool {
  name: StandardToolName;
  description: string;
  args: z.ZodType<Record<string, unknown>>;
  /** Runs the tool; absent for `wait` and `invoke_capability`, which the episode itself carries out. */
  run?: (ctx: ToolContext, args: Record<string, unknown>) => unknown;
}

/** Longest wait in one call: a week of logical minutes. */
export const MAX_WAIT_MINUTES = 7 * 24 * 60;

const tools: StandardTool[] = [
  {
    name: "list_reference_documents",
    description: "List every reference document version (id, version, title, kind, effective dates, scope), without text. Older and out-of-scope versions are included, so check which one applies; read one with read_document.",
    args: z.strictObject({}),
    run: (ctx) => listDocuments(ctx.documents),
  },
  {
    name: "search_documents",
    description: "Search the reference documents (policies, procedures, product terms, manuals, FAQ) by keywords. Returns every matching version with its effective dates and scope; older and out-of-scope versions are included, so check which one applies.",
    args: z.strictObject({ query: z.string().min(1).max(500).describe("Words to look for.") }),
    run: (ctx, a) => searchDocuments(ctx.documents, a.query as string),
  },
  {
    name: "read_document",
    description: "Read a reference document by its id. Without a version, returns the latest version in force; the answer lists all versions.",
    args: z.strictObject({
      id: z.string().min(1).max(200).describe("Document id, as returned by search_documents."),
      version: z.string().min(1).max(20).optional().describe("Version to read, e.g. \"4.1\"."),
    }),
    run: (ctx, a) => readDocument(ctx.documents, a.id as string, a.version as string | undefined),
  },
  {
    name: "query_database",
    description: `Run one read-only SQL SELECT (SQLite) over the business database. At most ${QUERY_ROW_LIMIT} rows come back. Write string literals in single quotes.`,
    args: z.strictObject({ sql: z.string().min(1).max(QUERY_MAX_LENGTH).describe("One SELECT statement.") }),
    run: (ctx, a) => queryDatabase(ctx.query, ctx.world, a.sql as string),
  },
  {
    name: "list_capabilities",
    description: "List the operations available to you (name, one-line summary, read or write, whether approval is needed), 50 per page.",
    args: z.strictObject({
      filter: z.string().max(200).optional().describe("Keep operations whose name or description contains all these words."),
      offset: z.number().int().min(0).optional().describe("Skip this many results (paging)."),
    }),
    run: (ctx, a) => listCapabilities(ctx.world, a.filter as string | undefined, (a.offset as number | undefined) ?? 0),
  },
  {
    name: "describe_capability",
    description: "Describe one operation: what it does, its parameters (JSON Schema) and any approval it needs.",
    args: z.strictObject({ name: z.string().min(1).max(200).describe("Operation name.") }),
    run: (ctx, a) => describeCapability(ctx.world, a.name as string),
  },
  {
    name: "invoke_capability",
    description: "Call an operation by name with its arguments (see describe_capability).",
    args: z.strictObject({
      name: z.string().min(1).max(200).describe("Operation name."),
      args: z.record(z.string(), z.unknown()).optional().describe("Arguments of the operation."),
    }),
  },
  {
    name: "wait",
    description: "Let time pass (in minutes); scheduled events that fall due meanwhile happen.",
    args: z.strictObject({
      minutes: z
        .number({ error: "minutes must be a whole number" })
        .int({ error: "minutes must be a whole number" })
        .min(0, { error: "minutes must be at least 0" })
        .max(MAX_WAIT_MINUTES, { error: `minutes must be at most ${MAX_WAIT_MINUTES}` })
        .describe("Minutes to wait."),
    }),
  },
];

export const STANDARD_TOOLS: ReadonlyMap<StandardToolName, StandardTool> = new Map(tools.map((t) => [t.name, t]));

/** A tool as an LLM binds it: name, description, JSON Schema of the arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return rest;
}

/**
 * The agent's tools. `direct`: standard tools plus one tool per agent-side operation.
 * `discovery`: standard tools only; operations are reached with invoke_capability (for worlds with
 * hundreds of operations). The query tool's description lists the visible schema.
 */
export function agentToolSpecs(world: CompiledWorld, mode: "direct" | "discovery" = "direct"): ToolSpec[] {
  const specs: ToolSpec[] = tools.map((t) => ({
    name: t.name,
    description: t.name === "query_database" ? `${t.description}\nTables:\n${visibleSchema(world)}` : t.description,
    parameters: jsonSchemaOf(t.args),
  }));
  if (mode === "discovery") return specs;
  for (const { op } of world.operations.values()) {
    if (op.side === "agent") specs.push({ name: op.name, description: op.description, parameters: paramsJsonSchema(op.params) });
  }
  return specs;
}

/** The customer simulator's actions: the world's customer-side operations. */
export function customerToolSpecs(world: CompiledWorld): ToolSpec[] {
  return [...world.operations.values()]
    .filter(({ op }) => op.side === "customer")
    .map(({ op }) => ({ name: op.name, description: op.description, parameters: paramsJsonSchema(op.params) }));
}
