import { join } from "node:path";
import type { Command } from "commander";
import { resolveConfig } from "../../core/config.js";
import { FoundryError, quote } from "../../core/errors.js";
import { DEFAULT_WALL_TIME_MS, evaluate } from "../../evaluate/evaluate.js";
import { choiceOption, conditionsOption, listOption, wholeOption } from "../../evaluate/settings.js";
import { agentKind } from "../../evaluate/agents/registry.js";
import { checkCustomerSpec } from "../../evaluate/customer/registry.js";
import { checkEnvSettings, ENV_MODES } from "../../evaluate/env-sim/env-mode.js";
import type { EvaluationResult, Rate } from "../../schemas/evaluation-result.js";
import type { SimulatedEvaluation } from "../../schemas/simulated.js";
import { backendFlags, withBackendOptions, type BackendFlags } from "../backend-options.js";

interface EvaluateFlags extends BackendFlags {
  agent?: string;
  userSim: string;
  conditions?: string;
  faultEvents?: string;
  faultDuration?: string;
  runs?: string;
  tasks?: string;
  domains?: string;
  concurrency?: string;
  maxTurns?: string;
  maxToolCalls?: string;
  wallTimeMs?: string;
  tools?: string;
  ablation?: string;
  seed?: string;
  env?: string;
  envSim?: string;
  simulateOps?: string;
  out?: string;
  fresh?: boolean;
  releases: string;
  json?: boolean;
}

function pct(r: Rate): string {
  if (r.rate === null) return "—";
  return `${(r.rate * 100).toFixed(1)}% [${((r.lo ?? 0) * 100).toFixed(1)}, ${((r.hi ?? 0) * 100).toFixed(1)}] n=${r.n}`;
}

/** The lines `synth evaluate` prints after the run: strict success per condition, robustness, where the outputs are. */
export function renderEvaluation(s: EvaluationResult, paths: { out: string; summary: string; report: string }, ran: number, skipped: number, simulatedOnly: SimulatedEvaluation | null = null): string {
  const lines = [`${s.agent} on ${s.release.name}@${s.release.version} (user-sim ${s.user_sim}${s.settings.env && s.settings.env !== "executable" ? `, env ${String(s.settings.env)}` : ""}): ${s.episodes.total} episodes, ${ran} run now, ${skipped} already finished, ${s.episodes.errored} errored`];
  lines.push(`  strict success   ${pct(s.overall.strict_success)}`);
  for (const [c, v] of Object.entries(s.by_condition)) lines.push(`  ${c.padEnd(16)} ${pct(v.strict_success)}`);
  lines.push(`  robustness       ${s.robustness === null ? "—" : s.robustness.toFixed(3)}`);
  lines.push(`  unflagged        ${pct(s.user_sim_audit.strict_success_unflagged)} (${s.user_sim_audit.flagged_episodes} episodes flagged by the transcript audit)`);
  if (simulatedOnly) {
    const r = simulatedOnly.strict_success;
    lines.push(`  simulated-only   ${r.rate === null ? "—" : `${(r.rate * 100).toFixed(1)}%`} (${r.passed} of ${r.completed} episodes, rubric only; ${simulatedOnly.skipped.length} task(s) skipped): ${join(paths.out, "simulated-only.json")}`);
  }
  lines.push(`results: ${join(paths.out, "results.jsonl")}`, `summary: ${paths.summary}`, `report:  ${paths.report}`);
  return `${lines.join("\n")}\n`;
}

/** `synth evaluate RELEASE --agent SPEC`: rank an agent on a frozen release. */
export function registerEvaluate(program: Command): void {
  const cmd = program.command("evaluate");
  withBackendOptions(cmd)
    .description("Evaluate an agent on a frozen release: every task under the fault conditions E0–E3 with a simulated customer, judged by the release's checks; writes traces, results.jsonl, summary.json and report.html.")
    .argument("<release>", "release folder, NAME@X.Y.Z, or NAME (its newest version) under --releases")
    .option("--agent <spec>", "oracle | noop | replay:FILE | probe:competent|goal-rusher|newest-version|fact-guesser|no-recheck | provider:model")
    .option("--user-sim <spec>", "customer simulator: deterministic or provider:model", "deterministic")
    .option("--conditions <list>", "fault conditions, e.g. E0,E2 (default E0,E1,E2,E3)")
    .option("--fault-events <n>", "fault events per faulted episode (default 2)")
    .option("--fault-duration <m>", "consecutive agent calls one fault event affects (default 2)")
    .option("--runs <k>", "runs per task and condition (default 1)")
    .option("--tasks <ids>", "only these task ids (comma-separated)")
    .option("--domains <ids>", "only these domains (comma-separated)")
    .option("--concurrency <n>", "episodes in flight at once (default: the configuration's concurrency); model calls per provider stay limited by the configuration's concurrency (FOUNDRY_CONCURRENCY)")
    .option("--max-turns <n>", "bound on agent turns (default: each task's max_turns)")
    .option("--max-tool-calls <n>", "bound on agent calls (default: 3 × the golden trace's agent calls)")
    .option("--wall-time-ms <n>", `wall-time bound of one episode (default ${DEFAULT_WALL_TIME_MS})`)
    .option("--tools <mode>", "direct: operations as tools; discovery: only through list/describe/invoke_capability (default direct)")
    .option("--ablation <kind>", "none | gold-docs (relevant in-force documents given up front) | full-disclosure (every private fact in the opening request); default none")
    .option("--seed <n>", "evaluation seed (default 0)")
    .option("--env <mode>", "executable (default; the world runtime answers, the release's checks judge; the only mode offline) | simulated (the env-sim model answers every business call from each task's environment configuration; a rubric verifier's majority of 3 judgments per criterion judges) | hybrid (the runtime answers and the checks judge; the env-sim model renders the responses of the --simulate-ops operations)")
    .option("--env-sim <spec>", "model of the env-sim role (provider:model) for --env simulated or hybrid (default: the configuration's models.env-sim / FOUNDRY_MODEL_ENV_SIM)")
    .option("--simulate-ops <list>", "--env hybrid: the operations whose responses the env-sim model renders (default: every agent-side operation)")
    .option("--out <dir>", "output folder (default generated/evaluations/<release>@<version>/<agent-slug>/; simulated and hybrid: …/<release>@<version>/<env>/<agent-slug>/)")
    .option("--fresh", "start over in --out instead of resuming (other settings are then allowed)")
    .option("--releases <dir>", "where NAME@X.Y.Z is looked up", join("generated", "releases"))
    .option("--json", "print the summary as JSON")
    .addHelpText(
      "after",
      `
The release's files are verified against its manifest first (the audit's integrity check); a
tampered release is refused naming each file. Each episode runs on a fresh copy of the task's
initial state with faults seeded by (task, condition, run), is appended to results.jsonl and its
trace written as it finishes. Rerunning the same command on the same --out skips finished episodes;
different settings are refused (--fresh starts over), and an --out of another release or agent is
refused. A provider failure after its retries makes the episode errored with its reason; errored
episodes are counted apart and left out of every rate.

With --backend postgres the episodes are items of a job queue in the database: this command
stores the release there, enqueues every episode not yet finished, prints progress across all
workers and writes the same files as an embedded run, byte for byte, as results arrive. Start
\`synth worker --database-url URL\` on any number of machines to work them.

Environment modes: --env simulated answers every business call (operations, query_database, wait)
with the env-sim model from the task's environment configuration (domains/<d>/env-configs/ in the
release); an answer that does not fit the operation's declared result shape is shown its problem
and retried within the configuration's max_retries, then recorded as an errored call. The reference
tools (documents, capability listings) stay the release's. Faults follow the same seeded plan as
executable mode: the rule of each planned call is handed to the simulator and recorded in the
trace. Success is judged by a rubric verifier (one criterion per check, from its description and
provenance; 3 independent judgments each, majority vote, every judgment stored), never by the
checks. --env hybrid keeps the runtime and the checks; the agent reads the env-sim model's
rendering of the --simulate-ops operations' responses (stored in the trace as \`rendered\`).
Both need a model for the env-sim role (a usage error otherwise). Simulated runs every agent: the
actions of the scripted ones (oracle, replay, probes) are answered by the simulator as a model's
calls are. Hybrid runs a model or noop agent (a scripted agent reads structured results, which
hybrid leaves as the runtime's). Results go to their own folder, and \`synth compare\` refuses to
pair different modes.

Simulated-only tasks (of domains with no world, marked simulated_only in the release) are reported
apart from the executable ones, in simulated-only.json and a section of report.html (summary.json
holds executable tasks only). They run only under --env simulated, for a model agent or noop, with
the deterministic customer: the simulator answers, the task's own rubric judges (every vote
stored). Under --env executable or hybrid, or for another agent, each is skipped with the reason;
they are never scored by executable checks.

Exit codes: 0 evaluated, 1 invalid input (a tampered release, a conflicting --out), 2 usage.

Examples:
  synth evaluate sample --agent oracle --conditions E0
  synth evaluate generated/releases/sample/1.7.0 --agent probe:competent --runs 3
  synth evaluate sample@1.7.0 --agent openai:gpt-4.1 --user-sim openai:gpt-4.1-mini --concurrency 4
  synth evaluate sample --agent openai:gpt-4.1 --env simulated --env-sim openai:gpt-4.1-mini`,
    )
    .action(async (release: string, f: EvaluateFlags) => {
      if (f.agent === undefined) throw new FoundryError("USAGE", "--agent is required (oracle, noop, replay:FILE, probe:NAME or provider:model)", { path: "--agent" });
      const config = resolveConfig({ flags: backendFlags(f) });
      const concurrency = wholeOption("--concurrency", f.concurrency, 1, config.concurrency);
      if (concurrency > 64) throw new FoundryError("USAGE", `--concurrency expects a whole number from 1 to 64, got ${quote(f.concurrency)}`, { path: "--concurrency" }, f.concurrency);
      // Episodes in flight and model calls in flight are two limits: say so when the second caps the first.
      // The evaluator's own classification of the specs (a bad one is the usage error it would give anyway).
      const asksModels = agentKind(f.agent) === "model" || checkCustomerSpec(f.userSim) === "llm";
      if (asksModels && concurrency > config.concurrency) {
        process.stderr.write(`warning: --concurrency ${concurrency} runs ${concurrency} episodes at once, but model calls stay limited to ${config.concurrency} at once per provider (the concurrency setting, FOUNDRY_CONCURRENCY); raise it as far as your API key's rate limit allows\n`);
      }
      const env = choiceOption("--env", f.env, ENV_MODES, "executable");
      const settings = {
        agent: f.agent,
        user_sim: f.userSim,
        conditions: conditionsOption(f.conditions),
        fault_events: wholeOption("--fault-events", f.faultEvents, 0, 2),
        fault_duration: wholeOption("--fault-duration", f.faultDuration, 1, 2),
        runs: wholeOption("--runs", f.runs, 1, 1),
        tasks: listOption("--tasks", f.tasks),
        domains: listOption("--domains", f.domains),
        max_turns: wholeOption("--max-turns", f.maxTurns, 1, null),
        max_tool_calls: wholeOption("--max-tool-calls", f.maxToolCalls, 1, null),
        wall_time_ms: wholeOption("--wall-time-ms", f.wallTimeMs, 1, DEFAULT_WALL_TIME_MS),
        tools: choiceOption("--tools", f.tools, ["direct", "discovery"] as const, "direct"),
        ablation: choiceOption("--ablation", f.ablation, ["none", "gold-docs", "full-disclosure"] as const, "none"),
        seed: wholeOption("--seed", f.seed, 0, 0),
        env,
        // The env-sim role's model: the flag, else the configuration's (never taken in executable mode).
        env_sim: env === "executable" ? (f.envSim ?? null) : (f.envSim ?? (config.models["env-sim"] && config.models["env-sim"] !== "deterministic" ? config.models["env-sim"] : null)),
        simulate_ops: listOption("--simulate-ops", f.simulateOps),
      };
      checkEnvSettings(settings, agentKind(settings.agent));
      const progress = !f.json && process.stderr.isTTY;
      // Loaded on use: the postgres driver and queue stay out of every other command's start-up.
      const { openBackend } = await import("../../backend/open-backend.js");
      const backend = await openBackend(config);
      const r = await evaluate({
        episodes: backend.episodes,
        release,
        releases: f.releases,
        settings,
        ...(f.out !== undefined ? { out: f.out } : {}),
        concurrency,
        fresh: f.fresh ?? false,
        config,
        ...(progress && backend.kind === "embedded" ? { onEpisode: (_r, done, total) => process.stderr.write(`\r${done}/${total} episodes`) } : {}),
      }).finally(() => backend.close());
      if (progress && backend.kind === "embedded") process.stderr.write("\n");
      if (f.json) process.stdout.write(`${JSON.stringify({ out: r.out, ran: r.ran, skipped: r.skipped, summary_file: r.summaryPath, report_file: r.reportPath, summary: r.summary, ...(r.simulatedOnly ? { simulated_only: r.simulatedOnly } : {}) }, null, 2)}\n`);
      else process.stdout.write(renderEvaluation(r.summary, { out: r.out, summary: r.summaryPath, report: r.reportPath }, r.ran, r.skipped, r.simulatedOnly));
      process.exitCode = 0;
    });
}
