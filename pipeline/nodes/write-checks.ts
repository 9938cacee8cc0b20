import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";
import { domainContext } from "./domain-context.js";
import { Task } from "../schemas/index.js";
import { forEachRecord } from "./for-each-record.js";
import { namedModelFailure } from "../llm/failure-reason.js";

/** write acceptance checks: for every designed task, before any golden trace exists. */
export async function writeChecks(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("write_checks");
  const ctx = domainContext(state, svc);
  const records = await forEachRecord(state, svc, "write_checks", "designed", async (r): Promise<TaskRecord> => {
    const { value } = await svc.cache.through("write_checks", { task: r.task, sop: state.sopHash, world: state.worldHash, strategy: svc.strategies["rubric-writer"] }, async () => Task.parse(await svc.rubricWriter.writeChecks(ctx, r.task as Task).catch(namedModelFailure)));
    return { ...r, task: value, status: "checked" };
  });
  return { records };
}
