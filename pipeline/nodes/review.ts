import { join } from "node:path";
import { interrupt } from "@langchain/langgraph";
import { contentHash, stableJson } from "../core/canonical-json.js";
import { readSopDir } from "../sop/sop-files.js";
import { writeIfChanged } from "../build/artifact-files.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";

/**
 * review SOP (with --review): pause until a person has read and possibly edited `sop/<domain>/`,
 * then continue from the reviewed files.
 */
export async function reviewSop(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  if (!state.review) return {};
  services(config).onNode?.("review_sop");
  const sopDir = join(state.paths.sop, state.domain);
  interrupt({ stage: "review_sop", message: `review and edit ${sopDir}/ (workflows/*.json, rules.json), then approve` });
  const sop = readSopDir(sopDir);
  writeIfChanged(join(state.paths.generated, state.domain, "sop.json"), stableJson(sop));
  return { sopHash: contentHash({ ...sop, sources_hash: "" }) };
}

/** review environment (with --review): pause after the world is built, before any task is designed. */
export async function reviewEnvironment(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  if (!state.review) return {};
  services(config).onNode?.("review_environment");
  interrupt({ stage: "review_environment", message: `review ${join(state.paths.generated, state.domain)}/world.json and initial-state.sqlite, then approve` });
  return {};
}
