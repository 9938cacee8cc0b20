import { join } from "node:path";
import { interrupt } from "@langchain/langgraph";
import { contentHash, stableJson } from "../core/canonical-json.js";
import { readSopDir } from "../sop/sop-files.js";
import { writeIfChanged } from "../build/artifact-files.js";
import { loadValidDomain } from "../build/load-context.js";
import { sourcesHash } from "../build/sources-hash.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import { writeEnvironment } from "./build-environment.js";

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

/**
 * review environment (with --review): pause after the world is built, before any task is designed,
 * on what the build really reads: `sources/<domain>/world.yaml` (generated world.json and
 * initial-state.sqlite are derived from it and rewritten). On approval the world is read again, so
 * an edit made during the pause is what every later stage uses, and the sources hash records it.
 */
export async function reviewEnvironment(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  if (!state.review) return {};
  const svc = services(config);
  svc.onNode?.("review_environment");
  const dir = join(state.paths.sources, state.domain);
  const generated = join(state.paths.generated, state.domain);
  interrupt({
    stage: "review_environment",
    message: `review and edit ${join(dir, "world.yaml")} (the world model the build reads; ${generated}/world.json and initial-state.sqlite are derived from it), then approve: the world is rebuilt from your edit (the SOP is not re-extracted)`,
  });
  // The memoised contexts hold the world as it was before the pause.
  svc.contexts.clear();
  const hash = sourcesHash(loadValidDomain(dir));
  return { sourcesHash: hash, ...writeEnvironment({ ...state, sourcesHash: hash }, svc) };
}
