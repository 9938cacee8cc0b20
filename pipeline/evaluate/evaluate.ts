import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { z } from "zod";
import { join } from "node:path";
import type { EpisodeResult, EvaluationResult } from "../schemas/evaluation-result.js";
import type { FoundryConfig } from "../core/config.js";
import { FoundryError, quote } from "../core/errors.js";
import type { LlmRuntimeOptions } from "../llm/llm-runtime.js";
import { loadEvalRelease, type EvalRelease, type EvalSimulatedTask, type EvalTask } from "./load-release.js";
import { evaluateSimulatedOnly } from "./simulated-only-tasks.js";
import type { SimulatedEvaluation } from "../schemas/index.js";
import { assertSameSettings, EvaluationSettings, SETTINGS_FILE } from "./settings.js";
import { agentKind, agentSlug } from "./agents/registry.js";
import { checkEnvSettings, simulatedOps } from "./env-sim/env-mode.js";
import { episodeSeed } from "./seeds.js";
import { keyOf, runEpisode, type PlannedEpisode } from "./episode-runner.js";
import { appendResult, episodeId, readResults, resetResults, RESULTS_FILE, rewriteResults, TRACES_DIR, writeJsonFile } from "./results-log.js";
import { envSimContext, episodeFactories } from "./episode-factories.js";
import { localEpisodes, type EpisodeRunner } from "./episode-batch.js";
import { writeEvaluationOutputs } from "./score/write-outputs.js";

/** Default wall-time bound of one episode: ten minutes. */
export const DEFAULT_WALL_TIME_MS = 10 * 60 * 1000;

/** Everything `synth evaluate` takes (the CLI parses and checks the options into this). */
export interface EvaluateOptions {
  release: string;
  /** Where NAME@X.Y.Z is looked up. Default generated/releases. */
  releases?: string;
  settings: Omit<z.input<typeof EvaluationSettings>, "release">;
  /** Output folder; default generated/evaluations/<release>@<version>/<agent-slug>/. */
  out?: string;
  /** Episodes in flight at once. Default 1. */
  concurrency?: number;
  /** Start over: drop the folder's results and traces (settings may then differ). */
  fresh?: boolean;
  /** The configuration the LLM runtime is built from (models come from --agent and --user-sim). */
  config: FoundryConfig;
  /** Runtime options (tests: a scripted model factory, no cache). */
  runtime?: LlmRuntimeOptions;
  /** Called after each finished episode (progress). */
  onEpisode?: (result: EpisodeResult, done: number, total: number) => void;
  /** Where episodes run: here (default), or the postgres backend's workers. */
  episodes?: EpisodeRunner;
}

export interface EvaluateOutcome {
  out: string;
  release: Pick<EvalRelease, "dir" | "name" | "version" | "root_hash">;
  /** Episodes run now (the rest were finished before). */
  ran: number;
  skipped: number;
  results: EpisodeResult[];
  summary: EvaluationResult;
  summaryPath: string;
  reportPath: string;
  /** The selected simulated-only tasks' results (`simulated-only.json`), reported apart; null when none was selected. */
  simulatedOnly: SimulatedEvaluation | null;
}

/** The simulated-only tasks the settings select, in release order (a replayed trace's agent selects none: it is of an executable task). */
export function selectSimulated(release: EvalRelease, settings: Pick<EvaluationSettings, "tasks" | "domains">, agentTasks: readonly string[] | null): EvalSimulatedTask[] {
  if (agentTasks !== null) return [];
  return release.simulated.filter((t) => (settings.domains === null || settings.domains.includes(t.domain.id)) && (settings.tasks === null || settings.tasks.includes(t.task.id)));
}

/**
 * The executable tasks the settings select, in release order; an unknown domain or task id is a
 * usage error naming it, and so is a selection of no task of either kind (simulated-only tasks
 * are selected by selectSimulated).
 */
export function selectTasks(release: EvalRelease, settings: Pick<EvaluationSettings, "tasks" | "domains">, agentTasks: readonly string[] | null): EvalTask[] {
  const domains = new Set([...release.domains.map((d) => d.id), ...release.simulated.map((t) => t.domain.id)]);
  for (const d of settings.domains ?? []) if (!domains.has(d)) throw new FoundryError("USAGE", `--domains: the release has no domain ${quote(d)} (it has ${[...domains].join(", ")})`, { path: "--domains" }, d);
  const ids = new Set([...release.tasks.map((t) => t.task.id), ...release.simulated.map((t) => t.task.id)]);
  for (const t of settings.tasks ?? []) if (!ids.has(t)) throw new FoundryError("USAGE", `--tasks: the release has no task ${quote(t)}`, { path: "--tasks" }, t);
  for (const t of agentTasks ?? []) if (!ids.has(t)) throw new FoundryError("USAGE", `--agent: the replayed trace is of task ${quote(t)}, which the release does not have`, { path: "--agent" }, t);
  const picked = release.tasks.filter(
    (t) => (settings.domains === null || settings.domains.includes(t.domain.id)) && (settings.tasks === null || settings.tasks.includes(t.task.id)) && (agentTasks === null || agentTasks.includes(t.task.id)),
  );
  if (picked.length === 0 && selectSimulated(release, settings, agentTasks).length === 0) throw new FoundryError("USAGE", "no task is selected (check --tasks, --domains and the replayed trace's task)", { path: "--tasks" }, settings.tasks);
  return picked;
}

/** The default output folder of an evaluation: simulated and hybrid results get folders of their own. */
export function defaultOut(release: Pick<EvalRelease, "name" | "version">, agent: string, env: EvaluationSettings["env"] = "executable"): string {
  const base = join("generated", "evaluations", `${release.name}@${release.version}`);
  return env === "executable" ? join(base, agentSlug(agent)) : join(base, env, agentSlug(agent));
}

/** Simulated and hybrid modes read each selected task's environment configuration: a release without them is refused. */
function checkEnvConfigs(release: EvalRelease, tasks: readonly EvalTask[], env: EvaluationSettings["env"]): void {
  if (env === "executable") return;
  const missing = tasks.filter((t) => t.env_config === null).map((t) => t.task.id);
  if (missing.length > 0) {
    throw new FoundryError("EVALUATION_NO_ENV_CONFIG", `--env ${env} needs each task's environment configuration; ${release.name}@${release.version} ships none for ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""} (exported before environment configurations: export the release again)`, { file: release.dir }, missing);
  }
}

/** Prepare the output folder: refuse one of another release or agent, or with other settings (unless --fresh). */
function prepareOut(out: string, settings: EvaluationSettings, fresh: boolean): void {
  const file = join(out, SETTINGS_FILE);
  if (existsSync(file)) {
    let stored: unknown;
    try {
      stored = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      throw new FoundryError("EVALUATION_SETTINGS_INVALID", `${SETTINGS_FILE} is not valid JSON`, { file });
    }
    // Another release or agent is refused even with --fresh: it is someone else's evaluation.
    try {
      assertSameSettings(file, stored, settings);
    } catch (e) {
      if (!fresh || (FoundryError.is(e) && e.code === "EVALUATION_OUT_CONFLICT")) throw e;
    }
  } else if (existsSync(out) && readdirSync(out).length > 0) {
    throw new FoundryError("EVALUATION_OUT_CONFLICT", `--out is not empty and holds no evaluation (${SETTINGS_FILE} missing): choose an empty or new folder`, { file: out });
  }
  if (fresh || !existsSync(file)) {
    rmSync(join(out, TRACES_DIR), { recursive: true, force: true, maxRetries: 3 });
    resetResults(out);
  }
  writeJsonFile(file, settings);
}

/**
 * `synth evaluate`: verify and load the release, plan every (task, condition, run), skip the
 * episodes results.jsonl already holds, run the rest on a p-queue (each appended to results.jsonl
 * and its trace written as it finishes), then write summary.json and report.html from every result.
 */
export async function evaluate(opts: EvaluateOptions): Promise<EvaluateOutcome> {
  const unplaced = EvaluationSettings.parse({ ...opts.settings, release: { name: "-", version: "0.0.0", root_hash: "-" } });
  checkEnvSettings(unplaced, agentKind(unplaced.agent));
  const factories = episodeFactories(unplaced, opts.config, opts.runtime ?? {});
  try {
    const release = loadEvalRelease(opts.release, opts.releases);
    const agent = factories.agent;
    const chosen = selectTasks(release, unplaced, agent.tasks);
    checkEnvConfigs(release, chosen, unplaced.env);
    const ops = [...new Set(chosen.flatMap((t) => t.domain.world.operations.filter((o) => o.side === "agent").map((o) => o.name)))];
    const settings: EvaluationSettings = EvaluationSettings.parse({
      ...opts.settings,
      release: { name: release.name, version: release.version, root_hash: release.root_hash },
      ...(unplaced.env === "hybrid" ? { simulate_ops: simulatedOps(unplaced.simulate_ops, ops) } : {}),
    });
    const tasks = selectTasks(release, settings, agent.tasks);
    factories.preflight();
    const customer = factories.customer();
    const out = opts.out ?? defaultOut(release, settings.agent, settings.env);
    prepareOut(out, settings, opts.fresh ?? false);

    const finished = readResults(out, true);
    const done = new Set(finished.map((r) => episodeId(r)));
    const planned: PlannedEpisode[] = [];
    for (const item of tasks)
      for (const condition of settings.conditions)
        for (let run = 0; run < settings.runs; run++) planned.push({ item, condition, run, seed: episodeSeed(settings.seed, item.task.id, condition, run) });
    const todo = planned.filter((p) => !done.has(episodeId(keyOf(p))));
    let count = planned.length - todo.length;
    const ctx = { settings, agent, customer, out, envSim: envSimContext(factories, settings, opts.config) };
    await (opts.episodes ?? localEpisodes).runAll({
      settings,
      release,
      config: opts.config,
      out,
      planned,
      todo,
      concurrency: opts.concurrency ?? 1,
      run: (p) => runEpisode(p, ctx),
      finished: (result) => {
        appendResult(out, result);
        opts.onEpisode?.(result, ++count, planned.length);
      },
    });
    // One order whoever ran the episodes and whenever they finished: the plan's (task, condition, run).
    const order = new Map(planned.map((p, i) => [episodeId(keyOf(p)), i]));
    const results = rewriteResults(out, (r) => order.get(episodeId(r)) ?? Number.MAX_SAFE_INTEGER);
    // Exactly what `synth score` reads back: every stored result, the whole release.
    // Simulated-only tasks: apart from the executable ones (simulated-only.json), never judged by checks.
    const envSim = ctx.envSim ? { model: ctx.envSim.model, native: ctx.envSim.native } : null;
    const simulatedOnly = await evaluateSimulatedOnly(selectSimulated(release, settings, agent.tasks), { settings, agent, envSim, out });
    const written = await writeEvaluationOutputs(out, results, settings, release, simulatedOnly?.result ?? null);
    return { out, release: { dir: release.dir, name: release.name, version: release.version, root_hash: release.root_hash }, ran: todo.length, skipped: planned.length - todo.length, results, ...written, simulatedOnly: simulatedOnly?.result ?? null };
  } finally {
    factories.close();
  }
}

export { RESULTS_FILE };
