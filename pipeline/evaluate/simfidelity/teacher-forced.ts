import type { Trace, TraceEvent } from "../../schemas/index.js";
import type { EnvSimulator } from "../env-sim/simulator.js";
import { compareResponse } from "./compare-response.js";
import type { FidelityCall } from "./report-schema.js";

const isRow = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function precondition(e: TraceEvent): string | undefined {
  const err = isRow(e.result) && isRow(e.result.error) ? e.result.error : null;
  return typeof err?.precondition === "string" ? err.precondition : undefined;
}

/**
 * Replay one executable trace teacher-forced through the simulator: for every agent call the
 * simulator answers (operations, the query tool, wait), it is asked for its answer given the
 * trace up to that call (the world's real responses), and the answer is compared with the
 * world's recorded one. `source` names the trace: `golden` or the agent that made it.
 */
export async function compareTrace(sim: EnvSimulator, trace: Pick<Trace, "events">, at: { source: string; domain: string; task: string }): Promise<FidelityCall[]> {
  const calls: FidelityCall[] = [];
  const events = trace.events;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.actor !== "agent" || e.kind === "agent_message" || !sim.answers(e.name)) continue;
    const p = await sim.predict({ name: e.name, args: e.args }, events.slice(0, i), null);
    // The results compared are the runtime's own (a proposal's id is in the result of the call that records it).
    const real = { status: e.status, result: e.result ?? null, precondition: precondition(e) };
    const simulated = p.ok ? { status: p.answer.status, result: p.answer.result ?? null, precondition: p.answer.precondition } : null;
    calls.push({ ...at, event: e.index, operation: e.name, position: calls.length + 1, valid: p.ok, ...compareResponse(real, simulated) });
  }
  return calls;
}
