import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "../../pipeline/evaluate/evaluate.js";
import { resolveConfig } from "../../pipeline/core/config.js";

/** The sample release, its newest version (the lead re-exports it as the code moves on). */
export const SAMPLE = "sample";

/** Evaluate `agent` on the sample release's fx-treasury tasks under E0 and E1, into a fresh temporary folder. */
export async function evaluated(agent: string, root = mkdtempSync(join(tmpdir(), "score-"))): Promise<string> {
  const out = join(root, agent.replace(/[^a-z0-9]+/gi, "-"));
  await evaluate({
    release: SAMPLE,
    out,
    concurrency: 2,
    config: resolveConfig({ env: {}, configFile: null }),
    settings: { agent, user_sim: "deterministic", conditions: ["E0", "E1"], fault_events: 2, fault_duration: 2, runs: 1, tasks: null, domains: ["fx-treasury"], max_turns: null, max_tool_calls: null, wall_time_ms: 600_000, tools: "direct", ablation: "none", seed: 0 },
  });
  return out;
}

/** A copy of an evaluation folder to damage. */
export function copyOf(dir: string): string {
  const to = join(mkdtempSync(join(tmpdir(), "score-copy-")), "eval");
  cpSync(dir, to, { recursive: true });
  return to;
}
