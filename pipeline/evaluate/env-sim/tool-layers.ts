import type { ToolCall, ToolOutcome } from "../../world/types.js";
import type { EnvSimulator } from "./simulator.js";
import type { SimulatedFaults } from "./fault-rules.js";

/** How an environment mode changes the session's tool calls (pipeline/evaluate/session.ts). */
export interface ToolLayer {
  /** Simulated: answer (and record) a call the simulator answers; null: the runtime answers it. */
  answer?(call: ToolCall): Promise<ToolOutcome | null>;
  /** Hybrid: what the agent reads of the runtime's answer `shown` (recorded as event `index`); null: the runtime's own answer. */
  render?(call: ToolCall, shown: unknown, outcome: ToolOutcome, index: number): Promise<unknown | null>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The operation a call reaches: itself, or the one invoke_capability names. */
function target(call: ToolCall): ToolCall | null {
  if (call.name !== "invoke_capability") return call;
  const { name, args } = call.args;
  return typeof name === "string" ? { name, args: isObject(args) ? args : {}, actor: call.actor } : null;
}

/**
 * Simulated mode: the simulator answers every business call (operations, the query tool, wait) from
 * the configuration; the planned fault of the call, counted as the runtime's fault layer counts,
 * is handed to it. Reference tools (documents, capability listings) stay the runtime's.
 */
export function simulatedLayer(sim: EnvSimulator, faults: SimulatedFaults): ToolLayer {
  return {
    async answer(call) {
      const t = target(call);
      const tool = t ? sim.answers(t.name) : null;
      if (!t || !tool || (call.name === "invoke_capability" && tool.kind !== "operation")) return null;
      // The runtime's fault layer never sees `wait`; neither does this count.
      const fault = t.name === "wait" ? null : faults.next().fault;
      return sim.answer(t, fault);
    },
  };
}

/** Hybrid mode: the runtime answers and the checks judge; the simulator renders what the agent reads of the operations in `ops`. */
export function hybridLayer(sim: EnvSimulator, ops: ReadonlySet<string>): ToolLayer {
  return {
    async render(call, shown, outcome, index) {
      const t = target(call);
      if (!t || !ops.has(t.name)) return null;
      const text = await sim.render(t, { ...outcome, result: shown }, index);
      return text === null ? null : { response: text };
    },
  };
}
