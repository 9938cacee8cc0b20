import type { ExplicitFault, PlannedFault } from "./fault-plan.js";
import type { ToolCall, ToolOutcome } from "./types.js";

const ERRORS: Record<ExplicitFault, { code: string; message: string }> = {
  timeout: { code: "TIMEOUT", message: "The service did not answer within 30 seconds." },
  http_500: { code: "HTTP_500", message: "Internal server error (HTTP 500)." },
  connection_refused: { code: "CONNECTION_REFUSED", message: "Connection refused: the service is unreachable." },
};

/** The outcome of a call an explicit fault replaced: nothing ran, no change, an error result. */
export function explicitFaultOutcome(call: ToolCall, callIndex: number, planned: PlannedFault & { type: ExplicitFault }): ToolOutcome {
  const error = ERRORS[planned.type];
  return {
    status: "faulted",
    result: { error: { ...error } },
    reason: `${planned.type}: ${error.message}`,
    changes: [],
    fault: { mode: "explicit", type: planned.type, detail: `agent call ${callIndex} (${call.name}) did not run: ${planned.type}`, fault_event: planned.fault_event },
  };
}

/** Narrows a planned fault to an explicit one. */
export function isExplicit(planned: PlannedFault): planned is PlannedFault & { type: ExplicitFault } {
  return planned.mode === "explicit";
}
