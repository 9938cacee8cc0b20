import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { stableJson } from "../core/canonical-json.js";
import type { Task } from "../schemas/index.js";
import { compileWorld } from "../world/compile-world.js";
import { renderEnvConfig } from "../world/env-config/render-env-config.js";
import { splitEnvConfig } from "../world/env-config/env-config-parts.js";
import { ENV_CONFIGS_DIR, ENV_SHARED_DIR } from "../../validation/audit/release-layout.js";
import { initialStateFor } from "../../validation/initial-states.js";
import { writeIfChanged } from "../build/artifact-files.js";
import type { BuildServices } from "../build/services.js";
import type { DomainContext } from "../agents/types.js";

/**
 * Write `generated/<domain>/env-configs/<task>.json` for every released task: the world model's
 * rendering (pipeline/world/env-config), rewritten by the environment builder's model when one is
 * configured. Each is stored in two parts (env-config-parts.ts): the task's file, and the shared part
 * under `env-configs/shared/<sha256>.json`, written once for all the tasks that share it. Files of
 * tasks no longer released, and shared parts no task names, are removed. Returns the paths that changed.
 */
export async function writeEnvConfigs(out: string, ctx: DomainContext, tasks: readonly Task[], svc: Pick<BuildServices, "envConfigWriter">): Promise<string[]> {
  // The world as the release holds it (world.json, stable JSON): the session's tool specs come from that one.
  const world = compileWorld(JSON.parse(stableJson(ctx.world)) as typeof ctx.world);
  const written: string[] = [];
  const keep = new Set<string>();
  const keepShared = new Set<string>();
  for (const task of tasks) {
    const state = initialStateFor(ctx, task);
    let config = renderEnvConfig({ world, state, task, sop: ctx.sop, domainTitle: ctx.card.title });
    if (svc.envConfigWriter) config = await svc.envConfigWriter.write(config, { world, state, documents: ctx.documents });
    const parts = splitEnvConfig(config);
    const name = `${task.id}.json`;
    keep.add(name);
    if (writeIfChanged(join(out, ENV_CONFIGS_DIR, name), stableJson(parts.file))) written.push(`${ENV_CONFIGS_DIR}/${name}`);
    const shared = `${parts.sharedHash}.json`;
    if (!keepShared.has(shared)) {
      keepShared.add(shared);
      if (writeIfChanged(join(out, ENV_SHARED_DIR, shared), parts.sharedBytes)) written.push(`${ENV_SHARED_DIR}/${shared}`);
    }
  }
  removeOthers(join(out, ENV_CONFIGS_DIR), keep);
  removeOthers(join(out, ENV_SHARED_DIR), keepShared);
  return written;
}

/** Remove the files of a folder that are not kept (folders are left alone). */
function removeOthers(dir: string, keep: ReadonlySet<string>): void {
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir, { withFileTypes: true })) if (f.isFile() && !keep.has(f.name)) rmSync(join(dir, f.name));
}
