import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FoundryConfig } from "../../core/config.js";
import { FoundryError, quote } from "../../core/errors.js";
import { stableJson } from "../../core/canonical-json.js";
import { createLlmRuntime, type LlmRuntimeOptions } from "../../llm/llm-runtime.js";
import { loadEvalRelease, type EvalTask } from "../load-release.js";
import { agentKind, agentSlug } from "../agents/registry.js";
import { EnvSimulator } from "../env-sim/simulator.js";
import { aggregate } from "./aggregate.js";
import { SimFidelityReport, type FidelityCall, type RankedAgent } from "./report-schema.js";
import { renderFidelityHtml } from "./render-html.js";
import { compareTrace } from "./teacher-forced.js";
import { runAgents } from "./agent-runs.js";
import { DEFAULT_RANKED_AGENTS, RANKING_CONDITIONS } from "./default-agents.js";
import { rankingAgreement } from "./ranking.js";

export interface SimFidelityOptions {
  release: string;
  releases?: string;
  /** The env-sim model measured (provider:model). */
  simulator: string;
  /** The agents whose traces are replayed and whose ranking is compared (default DEFAULT_RANKED_AGENTS). */
  agents?: readonly string[];
  tasks: string[] | null;
  domains: string[] | null;
  out?: string;
  config: FoundryConfig;
  runtime?: LlmRuntimeOptions;
}

const METHOD =
  "Each released golden trace, and each agent's executable trace (the --agents evaluated with --env executable), is replayed teacher-forced: for every agent call the simulator answers (operations, the query tool, wait), the simulator is asked for its answer given the task's environment configuration and the trace up to that call (the world's real responses), and its answer is compared with the world's recorded response: status, leaf fields of the result, records invented or missing (list rows matched by their first field).";

const RANKING_METHOD = `Every agent is evaluated on the selected tasks at ${RANKING_CONDITIONS.join(", ")} (one run, seed 0, the deterministic customer, synth evaluate's default bounds) under --env executable (the release's checks judge) and under --env simulated with the simulator measured (the rubric verifier's majority judges). Each unordered pair is ordered by strict success rate (completed episodes) in each mode: higher rate first, equal rates a tie. A pair agrees when both modes give the same order; a tie agrees only with a tie. Agreement = agreeing pairs / pairs compared (a pair with a mode that completed no episode is not compared).`;

/** `--agents` checked: known agent specs, no repeats, at least two (one pair). */
export function checkRankedAgents(agents: readonly string[]): void {
  for (const a of agents) agentKind(a);
  const repeated = agents.find((a, i) => agents.indexOf(a) !== i);
  if (repeated !== undefined) throw new FoundryError("USAGE", `--agents names ${quote(repeated)} twice`, { path: "--agents" }, repeated);
  if (agents.length < 2) throw new FoundryError("USAGE", `--agents needs at least two agents to rank (a pair), got ${agents.length}`, { path: "--agents" }, agents);
}

/**
 * `synth simfidelity`: measure an environment simulator against the executable world on the
 * release's golden traces and the agents' executable traces (teacher-forced, METHOD), per trace
 * source, operation, domain, overall and over the conversation; rank the agents under both
 * environments (RANKING_METHOD); write simfidelity.json (schema-checked) and simfidelity.html.
 */
export async function simFidelity(opts: SimFidelityOptions): Promise<{ report: SimFidelityReport; jsonPath: string; htmlPath: string }> {
  const agents = opts.agents ?? DEFAULT_RANKED_AGENTS;
  checkRankedAgents(agents);
  const release = loadEvalRelease(opts.release, opts.releases);
  const tasks = release.tasks.filter((t) => (opts.domains === null || opts.domains.includes(t.domain.id)) && (opts.tasks === null || opts.tasks.includes(t.task.id)));
  if (tasks.length === 0) throw new FoundryError("USAGE", "no task is selected (check --tasks and --domains)", { path: "--tasks" });
  const missing = tasks.filter((t) => t.env_config === null).map((t) => t.task.id);
  if (missing.length > 0) throw new FoundryError("EVALUATION_NO_ENV_CONFIG", `${release.name}@${release.version} ships no environment configuration for ${missing.slice(0, 5).join(", ")}: export the release again`, { file: release.dir }, missing);
  const out = opts.out ?? join("generated", "simfidelity", `${release.name}@${release.version}`, agentSlug(opts.simulator));
  const runtime = createLlmRuntime({ ...opts.config, models: { ...opts.config.models, "env-sim": opts.simulator } }, opts.runtime ?? {});
  const calls: FidelityCall[] = [];
  let ranked: RankedAgent[];
  try {
    runtime.preflight(["env-sim"]);
    const simulatorOf = (t: EvalTask) => {
      const model = runtime.chatModel({ role: "env-sim", stage: "simfidelity", item: t.task.id });
      if (!model) throw new FoundryError("LLM_NOT_CONFIGURED", "no model for the env-sim role", { path: "--simulator" }, opts.simulator);
      return new EnvSimulator({ model, config: t.env_config!(), native: opts.config.structured_output === "native" });
    };
    for (const t of tasks) calls.push(...(await compareTrace(simulatorOf(t), t.golden, { source: "golden", domain: t.domain.id, task: t.task.id })));
    const runs = await runAgents({ releaseDir: release.dir, agents, simulator: opts.simulator, tasks: opts.tasks, domains: opts.domains, out: join(out, "evaluations"), config: opts.config, ...(opts.runtime ? { runtime: opts.runtime } : {}) });
    ranked = runs.ranked;
    const byId = new Map(tasks.map((t) => [t.task.id, t]));
    for (const a of runs.traces) for (const x of a.traces) calls.push(...(await compareTrace(simulatorOf(byId.get(x.task)!), x.trace, { source: a.agent, domain: x.domain, task: x.task })));
  } finally {
    runtime.close();
  }
  const ranking = { method: RANKING_METHOD, conditions: [...RANKING_CONDITIONS], agents: ranked, ...rankingAgreement(ranked) };
  const report = SimFidelityReport.parse({ release: { name: release.name, version: release.version, root_hash: release.root_hash }, simulator: opts.simulator, method: METHOD, ...aggregate(calls), ranking, calls });
  mkdirSync(out, { recursive: true });
  const jsonPath = join(out, "simfidelity.json");
  const htmlPath = join(out, "simfidelity.html");
  writeFileSync(jsonPath, stableJson(report));
  writeFileSync(htmlPath, renderFidelityHtml(report));
  return { report, jsonPath, htmlPath };
}
