import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { stableJson } from "../core/canonical-json.js";
import type { Task } from "../schemas/index.js";
import { compileWorld } from "../world/compile-world.js";
import { renderEnvConfig } from "../world/env-config/render-env-config.js";
import { ENV_CONFIGS_DIR } from "../../validation/audit/release-layout.js";
import { initialStateFor } from "../../validation/initial-states.js";
import { writeIfChanged } from "../build/artifact-files.js";
import type { BuildServices } from "../build/services.js";
import type { DomainContext } from "../agents/types.js";

/**
 * Write `generated/<domain>/env-configs/<task>.json` for every released task: the world model's
 * rendering (pipeline/world/env-config), rewritten by the environment builder's model when one is
 * configured. Files of tasks no longer released are removed. Returns the paths that changed.
 */
export async function writeEnvConfigs(out: string, ctx: DomainContext, tasks: readonly Task[], svc: Pick<BuildServices, "envConfigWriter">): Promise<string[]> {
  // The world as the release holds it (world.json, stable JSON): the session's tool specs come from that one.
  const world = compileWorld(JSON.parse(stableJson(ctx.world)) as typeof ctx.world);
  const written: string[] = [];
  const keep = new Set<string>();
  for (const task of tasks) {
    const state = initialStateFor(ctx, task);
    let config = renderEnvConfig({ world, state, task, sop: ctx.sop, domainTitle: ctx.card.title });
    if (svc.envConfigWriter) config = await svc.envConfigWriter.write(config, { world, state, documents: ctx.documents });
    const name = `${task.id}.json`;
    keep.add(name);
    if (writeIfChanged(join(out, ENV_CONFIGS_DIR, name), stableJson(config))) written.push(`${ENV_CONFIGS_DIR}/${name}`);
  }
  const dir = join(out, ENV_CONFIGS_DIR);
  if (existsSync(dir)) for (const f of readdirSync(dir)) if (!keep.has(f)) rmSync(join(dir, f));
  return written;
}
