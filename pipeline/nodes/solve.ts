import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import type { SolveResult } from "../agents/types.js";
import type { Task } from "../schemas/index.js";
import { domainContext } from "./domain-context.js";
import { forEachRecord } from "./for-each-record.js";
import { namedModelFailure } from "../llm/failure-reason.js";

/** solve: record each checked task's golden trace through the agent's tools. */
export async function solve(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("solve");
  const ctx = domainContext(state, svc);
  const records = await forEachRecord(state, svc, "solve", "checked", async (r): Promise<TaskRecord> => {
    const { value } = await svc.cache.through<SolveResult>("solve", { task: r.task, world: state.worldHash, strategy: svc.strategies.solver }, () => svc.solver.solve(ctx, r.task as Task).catch(namedModelFailure));
    return value.ok ? { ...r, golden: value.trace, status: "solved" } : { ...r, status: "failed", reason: `solve: ${value.reason}`, diagnosis: { gate: "solve", check: null, event: null, detail: value.reason } };
  });
  return { records };
}
