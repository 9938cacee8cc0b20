import type { RowChange, FaultRecord, TraceEvent, Task, WorldModel, Trace } from "../schemas/index.js";

/**
 * The contracts between the world runtime, the fault layer and the check engine. The runtime
 * (episode.ts) produces outcomes, the fault layer (faults.ts) may replace or degrade them, the trace
 * recorder turns them into trace events, and checks (validation/checks) read the finished trace.
 */

/** One call of an operation or standard tool, by the agent or on behalf of the customer. */
export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
  actor: "agent" | "customer";
}

/** What a call did. `rejected` and `errored` never change the state. */
export interface ToolOutcome {
  status: "executed" | "rejected" | "errored" | "faulted";
  /** What the caller sees. For errors: `{ error: { code, message, field? } }`. */
  result: unknown;
  /** Precondition id and message, or the argument field and reason. */
  reason?: string;
  changes: RowChange[];
  proposal_id?: string;
  fault?: FaultRecord;
  /** Answered by the environment simulator (simulated evaluation), not run by the runtime. */
  simulated?: true;
}

/** The function the fault layer wraps: run one call against the live episode. */
export type Invoke = (call: ToolCall) => ToolOutcome;

/**
 * What a check may look at besides the trace: the initial state (by table and key), the world
 * model and the task. Everything here is read-only and deterministic, so checks stay pure.
 */
export interface CheckContext {
  world: WorldModel;
  task: Task;
  /** Row of the initial state (s0, after the task overlay), or null if absent. */
  initialRow(table: string, key: string | number): Record<string, unknown> | null;
  /** All keys of a table in the initial state (for "no other row changed" style checks). */
  initialKeys(table: string): Array<string | number>;
}

export type { RowChange, FaultRecord, TraceEvent, Trace };
