import { join } from "node:path";
import { contentHash, stableJson } from "../core/canonical-json.js";
import { writeIfChanged } from "../build/artifact-files.js";
import { services, type BuildServices, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, StageFigures } from "../graph/state.js";
import { domainContext } from "./domain-context.js";
import { reusableTasks } from "./reuse-tasks.js";

/**
 * Write the domain's environment from `sources/<domain>/world.yaml` (through its DomainContext) into
 * `generated/<domain>/`: world.json, the base initial state and the knowledge base; returns its
 * hash and the task slots. Shared by build_environment and review_environment (after an edit).
 */
export function writeEnvironment(state: BuildStateType, svc: BuildServices): Pick<BuildUpdate, "worldHash" | "slots" | "stages"> {
  const ctx = domainContext(state, svc);
  const out = join(state.paths.generated, state.domain);
  writeIfChanged(join(out, "world.json"), stableJson(ctx.world));
  writeIfChanged(join(out, "initial-state.sqlite"), ctx.base.buffer);
  writeIfChanged(join(out, "documents.json"), stableJson(ctx.documents));
  const slots = Array.from({ length: ctx.card.generation.task_count }, (_, i) => i);
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "build_environment", done: 1, total: 1, detail: `${ctx.world.tables.length} tables, ${ctx.world.operations.length} operations, state ${ctx.base.hash.slice(0, 12)}` });
  return {
    // The environment an agent meets: the world, its initial state and the knowledge base. The
    // documents are in it because golden traces record read_document answers (and probes search
    // the texts): a document edit that leaves the SOP unchanged must still miss every stage keyed
    // on this hash (solve, verify, calibrate…), or cached traces would quote the old text.
    worldHash: contentHash({ world: ctx.world, state: ctx.base.hash, documents: ctx.documents }),
    slots,
    stages: [{ stage: "build_environment", items_in: ctx.world.tables.length, items_out: ctx.world.operations.length, dropped: [] }],
  };
}

/**
 * build environment: the world model becomes the domain's base initial state (serialized once) and
 * the knowledge base; both are written to `generated/<domain>/`, and the task slots are laid out.
 * When the slots' outcome is known for these inputs (reuse-tasks.ts), its records come with it.
 */
export async function buildEnvironment(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("build_environment");
  const env = writeEnvironment(state, svc);
  const reused = reusableTasks({ ...state, ...env } as BuildStateType, svc);
  if (!reused) return { ...env, reused: false };
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "design_tasks", done: reused.records.length, total: reused.records.length, cache_hits: 1, detail: "every task stage unchanged: records reused" });
  return { ...env, stages: [...((env.stages as StageFigures[] | undefined) ?? []), ...reused.stages], records: reused.records, reused: true };
}
