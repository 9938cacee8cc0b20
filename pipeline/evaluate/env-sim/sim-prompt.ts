import type { EnvConfig, EnvTool } from "../../schemas/env-config.js";
import type { TraceEvent } from "../../schemas/index.js";

/** The simulator's system message: the configuration's system prompt, then the configuration itself. */
export function simulatorSystem(config: EnvConfig): string {
  const tools = config.tools
    .filter((t) => t.kind !== "conversation" && t.kind !== "reference")
    .map((t) => ({ name: t.name, description: t.description, parameters: t.parameters, access: t.access, preconditions: t.preconditions, effects: t.effects, result: t.result, proposes: t.proposes, requires_approval: t.requires_approval }));
  return [
    config.system_prompt,
    `Tools you answer (with their declared result shapes):\n${JSON.stringify(tools)}`,
    `Initial state (${config.row_rule}):\n${JSON.stringify(config.initial_state)}`,
    `State description:\n${JSON.stringify(config.state_description)}`,
  ].join("\n\n");
}

/** One line of the conversation so far, as the simulator reads it. */
function line(e: TraceEvent): string {
  if (e.kind === "customer_message" || e.kind === "agent_message") return `${e.actor}: ${e.text ?? ""}`;
  if (e.actor === "system") return `[scheduled event ${e.name} at minute ${e.time}]`;
  const answer = e.rendered ?? JSON.stringify(e.result ?? null);
  return `[${e.actor} called ${e.name} ${JSON.stringify(e.args)} → ${e.status}: ${answer}]`;
}

/** The request of one call: the conversation so far, the call, its tool's declared shape, and the fault rule when one applies. */
export function callRequest(events: readonly TraceEvent[], call: { name: string; args: Record<string, unknown> }, tool: EnvTool, rule: string | null): string {
  return [
    `Conversation so far (logical minute ${events.at(-1)?.time ?? 0}):\n${events.length === 0 ? "(nothing yet)" : events.map(line).join("\n")}`,
    `Answer this call: ${call.name} ${JSON.stringify(call.args)}`,
    `Declared result shape of ${tool.name}: ${JSON.stringify(tool.result)}${tool.proposes ? ` (it records a ${tool.proposes} proposal: give proposal_id)` : ""}`,
    ...(rule ? [rule] : []),
  ].join("\n\n");
}

/** The request of a hybrid rendering: the runtime's exact answer, to be shown as the system would show it. */
export function renderRequest(call: { name: string; args: Record<string, unknown> }, status: string, result: unknown): string {
  return [
    `The system answered ${call.name} ${JSON.stringify(call.args)} with status ${status}:`,
    JSON.stringify(result ?? null),
    "Render this answer as the system's own response text (its screen or message format). Keep every value exactly; add no value, leave none out.",
  ].join("\n\n");
}
