import { codeFingerprint, CODE_ROOT } from "./code-fingerprint.js";

/** The node module of each cached stage. */
const STAGE_MODULES: Readonly<Record<string, string>> = {
  ingest: "pipeline/nodes/ingest.ts",
  domain_context: "pipeline/nodes/domain-context.ts",
  extract_sop: "pipeline/nodes/extract-sop.ts",
  design_task: "pipeline/nodes/design-task.ts",
  design_units: "pipeline/nodes/design-stages.ts",
  write_checks: "pipeline/nodes/write-checks.ts",
  solve: "pipeline/nodes/solve.ts",
  verify: "pipeline/nodes/verify.ts",
  calibrate: "pipeline/nodes/calibrate.ts",
};

/** The role whose strategy a stage calls through the services (its code is not in the node's imports). */
const STAGE_ROLE: Readonly<Record<string, string>> = {
  extract_sop: "sop-extractor",
  design_task: "task-designer",
  write_checks: "rubric-writer",
  solve: "solver",
  calibrate: "calibrator",
};

/** The module of each role's strategy, deterministic or llm. */
const STRATEGY_MODULES: Readonly<Record<string, { deterministic: string; llm: string }>> = {
  "sop-extractor": { deterministic: "pipeline/sop/extract-domain.ts", llm: "pipeline/sop/extract-domain.ts" },
  "task-designer": { deterministic: "pipeline/agents/task-designer/deterministic.ts", llm: "pipeline/agents/task-designer/llm.ts" },
  "rubric-writer": { deterministic: "pipeline/agents/rubric-writer/deterministic.ts", llm: "pipeline/agents/rubric-writer/llm.ts" },
  solver: { deterministic: "pipeline/agents/solver/deterministic.ts", llm: "pipeline/agents/solver/llm.ts" },
  calibrator: { deterministic: "pipeline/agents/calibrator/deterministic.ts", llm: "pipeline/agents/calibrator/llm.ts" },
};

/** What a whole build runs: the graph with every node, and every strategy it can choose. */
export const BUILD_MODULES = ["pipeline/graph/build-graph.ts", "pipeline/build/strategies.ts", "pipeline/build/run-build.ts"] as const;

/** The modules a stage runs with the given strategies (role → `deterministic` or `provider:model`). */
export function stageModules(stage: string, strategies: Readonly<Record<string, string>>): string[] {
  const node = STAGE_MODULES[stage];
  // A stage this table does not know falls back to the whole build's code: never blind, only coarser.
  if (!node) return [...BUILD_MODULES];
  const role = STAGE_ROLE[stage];
  const impl = role ? STRATEGY_MODULES[role] : undefined;
  if (!role || !impl) return [node];
  return [node, strategies[role] === undefined || strategies[role] === "deterministic" ? impl.deterministic : impl.llm];
}

/** Code fingerprint of one stage under the chosen strategies (see codeFingerprint). */
export function stageFingerprint(stage: string, strategies: Readonly<Record<string, string>>, root: string = CODE_ROOT): string {
  return codeFingerprint(stageModules(stage, strategies), root);
}

/** Code fingerprint of everything a build runs: recorded in the build record, compared by `synth release`. */
export function buildFingerprint(root: string = CODE_ROOT): string {
  return codeFingerprint(BUILD_MODULES, root);
}
