import type { Trace, TraceEvent } from "../schemas/index.js";
import type { CallCounts } from "../schemas/evaluation-result.js";
import { canonicalJson } from "../core/canonical-json.js";

const DOCUMENT_TOOLS = new Set(["list_reference_documents", "search_documents", "read_document"]);
const DISCOVERY_TOOLS = new Set(["list_capabilities", "describe_capability"]);

/** Whether a trace event is a call the agent made (a tool, an operation, a message, a wait). */
export function isAgentCall(e: TraceEvent): boolean {
  return e.actor === "agent" && e.kind !== "scheduled_event";
}

function argsKey(e: TraceEvent): string {
  try {
    return `${e.kind}\u0000${e.name}\u0000${canonicalJson(e.kind === "agent_message" ? { text: e.text ?? "" } : e.args)}`;
  } catch {
    return `${e.kind}\u0000${e.name}\u0000${JSON.stringify(e.args)}`;
  }
}

/**
 * The agent's calls of a trace by kind. Everything the agent did counts in `total` (messages and
 * waits included); an operation reached through invoke_capability is traced under its own name and
 * counts as an operation; an identical earlier call (same kind, tool and arguments, or the same
 * message text) makes a repeat.
 */
export function countCalls(trace: Trace): CallCounts {
  const c: CallCounts = { total: 0, document_reads: 0, distinct_documents: 0, queries: 0, discovery: 0, operations: 0, messages: 0, waits: 0, repeats: 0, rejected: 0, errored: 0 };
  const seen = new Set<string>();
  const docs = new Set<string>();
  for (const e of trace.events) {
    if (!isAgentCall(e)) continue;
    c.total++;
    if (e.kind === "agent_message") c.messages++;
    else if (e.kind === "wait") c.waits++;
    else if (DOCUMENT_TOOLS.has(e.name)) {
      c.document_reads++;
      if (e.name === "read_document" && typeof e.args.id === "string" && e.status === "executed") docs.add(e.args.id);
    } else if (e.name === "query_database") c.queries++;
    else if (DISCOVERY_TOOLS.has(e.name)) c.discovery++;
    else c.operations++;
    if (e.status === "rejected") c.rejected++;
    if (e.status === "errored" || e.status === "faulted") c.errored++;
    const key = argsKey(e);
    if (seen.has(key)) c.repeats++;
    else seen.add(key);
  }
  c.distinct_documents = docs.size;
  return c;
}
