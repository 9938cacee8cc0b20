/**
 * Names the runtime reserves. Standard tools are always available to the agent, so no operation may
 * take their name; the bound SQL parameters `:now`, `:actor` and `:call` may not be operation params.
 */
export const STANDARD_TOOL_NAMES = [
  "list_reference_documents",
  "search_documents",
  "read_document",
  "query_database",
  "list_capabilities",
  "describe_capability",
  "invoke_capability",
  "wait",
] as const;
export type StandardToolName = (typeof STANDARD_TOOL_NAMES)[number];

export const RESERVED_PARAMS = ["now", "actor", "call"] as const;

/** Whether `name` is a standard tool of the runtime. */
export function isStandardTool(name: string): name is StandardToolName {
  return (STANDARD_TOOL_NAMES as readonly string[]).includes(name);
}
