import { join } from "node:path";
import Table from "cli-table3";
import type { FoundryConfig } from "../../core/config.js";
import { evaluate } from "../../evaluate/evaluate.js";
import { DEFAULT_WALL_TIME_MS } from "../../evaluate/evaluate.js";
import { agentSlug } from "../../evaluate/agents/registry.js";
import type { Rate } from "../../schemas/evaluation-result.js";

/** The agents the demo evaluates: the bounds and the five probes. */
export const DEMO_AGENTS = ["oracle", "noop", "probe:competent", "probe:goal-rusher", "probe:newest-version", "probe:fact-guesser", "probe:no-recheck"] as const;

/** One agent's line of the demo's leaderboard. */
export interface DemoEvaluationRow {
  agent: string;
  episodes: number;
  by_condition: Record<string, number | null>;
  robustness: number | null;
  report: string;
}

const pct = (r: Rate | undefined) => (r?.rate === null || r === undefined ? null : r.rate);
const show = (x: number | null) => (x === null ? "—" : `${(100 * x).toFixed(1)}%`);

/**
 * The demo's evaluation part: every agent of DEMO_AGENTS on the committed sample release under
 * E0–E3 with the deterministic customer, each into `generated/evaluations/<release>@<version>/<agent>/`
 * (started over each time, so the figures follow the code). Offline: no agent here calls a model.
 */
export async function runDemoEvaluations(opts: { /** `NAME@X.Y.Z` */ release: string; releasesRoot: string; generated: string; config: FoundryConfig }): Promise<{ rows: DemoEvaluationRow[]; table: string; markdown: string }> {
  const rows: DemoEvaluationRow[] = [];
  for (const agent of DEMO_AGENTS) {
    const r = await evaluate({
      release: opts.release,
      releases: opts.releasesRoot,
      settings: { agent, user_sim: "deterministic", conditions: ["E0", "E1", "E2", "E3"], fault_events: 2, fault_duration: 2, runs: 1, tasks: null, domains: null, max_turns: null, max_tool_calls: null, wall_time_ms: DEFAULT_WALL_TIME_MS, tools: "direct", ablation: "none", seed: 0 },
      out: join(opts.generated, "evaluations", opts.release, agentSlug(agent)),
      fresh: true,
      config: opts.config,
      runtime: { cache: null },
    });
    rows.push({ agent, episodes: r.summary.episodes.total, by_condition: Object.fromEntries(["E0", "E1", "E2", "E3"].map((c) => [c, pct(r.summary.by_condition[c]?.strict_success)])), robustness: r.summary.robustness, report: r.reportPath });
  }
  const table = new Table({ head: ["agent", "episodes", "E0", "E1", "E2", "E3", "robustness", "report"] });
  for (const row of rows) table.push([row.agent, row.episodes, ...["E0", "E1", "E2", "E3"].map((c) => show(row.by_condition[c] ?? null)), row.robustness === null ? "—" : row.robustness.toFixed(2), row.report]);
  const markdown = [
    "## Evaluation of the sample release (strict success, deterministic customer)",
    "",
    "| agent | episodes | E0 | E1 | E2 | E3 | robustness | report |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row.agent} | ${row.episodes} | ${["E0", "E1", "E2", "E3"].map((c) => show(row.by_condition[c] ?? null)).join(" | ")} | ${row.robustness === null ? "—" : row.robustness.toFixed(2)} | ${row.report} |`),
    "",
  ].join("\n");
  return { rows, table: table.toString(), markdown };
}
