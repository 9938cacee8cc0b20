import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { evaluate, type EvaluateOutcome } from "../../pipeline/evaluate/evaluate.js";
import type { EvaluationSettings } from "../../pipeline/evaluate/settings.js";
import { testConfig } from "../llm/helpers.js";
import { latestVersion } from "../../pipeline/build/sample-release.js";

export const RELEASES = fileURLToPath(new URL("../../generated/releases", import.meta.url));
/** The newest committed version of the sample release. */
export const SAMPLE = join(RELEASES, "sample", latestVersion(RELEASES, "sample") ?? "missing");

/** Settings of a test evaluation: the CLI defaults, with `over` applied. */
export function settingsWith(over: Partial<Omit<EvaluationSettings, "release">> & { agent: string }): Omit<EvaluationSettings, "release"> {
  return { user_sim: "deterministic", conditions: ["E0"], fault_events: 2, fault_duration: 2, runs: 1, tasks: null, domains: null, max_turns: null, max_tool_calls: null, wall_time_ms: 600_000, tools: "direct", ablation: "none", seed: 0, env: "executable", env_sim: null, simulate_ops: null, ...over };
}

/** Evaluate `agent` on the sample release into a fresh temporary folder. */
export async function evaluateSample(over: Partial<Omit<EvaluationSettings, "release">> & { agent: string }, out = mkdtempSync(join(tmpdir(), "eval-"))): Promise<EvaluateOutcome> {
  return evaluate({ release: SAMPLE, settings: settingsWith(over), out, config: testConfig(), runtime: { cache: null, env: {} } });
}

/** Strict-success rate of one condition's completed episodes. */
export function strictRate(o: EvaluateOutcome, condition: string): number {
  const xs = o.results.filter((r) => r.condition === condition && r.status === "completed");
  return xs.filter((r) => r.strict_success).length / xs.length;
}
