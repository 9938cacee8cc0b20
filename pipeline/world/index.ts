// The world runtime's public surface (the fault layer has its own entry point, faults.ts).
export { loadWorld, readWorld, parseWorld, validateWorld, type WorldCheckResult } from "./load-world.js";
export { WorldInvalidError, formatPath, type WorldProblem } from "./world-problems.js";
export { buildBaseState, applyOverlay, buildInitialState, DEFAULT_EPOCH, type InitialState, type BuildOptions } from "./build-state.js";
export { compileWorld, episodeEvents, type CompiledWorld, type CompiledOperation, type CallKind } from "./compile-world.js";
export { Episode, type EpisodeOptions, type EpisodeTask } from "./episode.js";
export type { Isolation } from "./connection.js";
export { TraceRecorder, say, nextStateHash, type TraceMeta, type DialogueMessage } from "./trace-recorder.js";
export { replay, type ReplayResult, type ReplayMismatch, type ReplayOptions } from "./replay.js";
export { STANDARD_TOOLS, agentToolSpecs, customerToolSpecs, MAX_WAIT_MINUTES, type ToolSpec, type StandardTool } from "./standard-tools.js";
export { searchDocuments, readDocument, SEARCH_LIMIT, type KnowledgeDocument } from "./documents-tool.js";
export { queryDatabase, QUERY_ROW_LIMIT, QUERY_MAX_LENGTH } from "./query-tool.js";
export { listCapabilities, describeCapability, CAPABILITY_PAGE } from "./discovery-tools.js";
export { paramsJsonSchema } from "./args.js";
export { stateContentHash } from "./state-hash.js";
export { createCheckContext } from "./check-context.js";
export { STANDARD_TOOL_NAMES, RESERVED_PARAMS } from "./tool-names.js";
export { PROPOSALS_TABLE } from "./schema-sql.js";
export type { ToolCall, ToolOutcome, Invoke, CheckContext } from "./types.js";
