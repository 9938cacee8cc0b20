import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "@langchain/langgraph";
import { FoundryError } from "../core/errors.js";
import type { FoundryConfig } from "../core/config.js";
import { listDomainDirs } from "../sources/domain-dirs.js";
import { cardEnvironment } from "../sources/card-environment.js";
import { createLlmRuntime } from "../llm/llm-runtime.js";
import type { ModelFactory } from "../llm/model-registry.js";
import type { BuildStateType } from "../graph/state.js";
import { chooseStrategies } from "./strategies.js";
import { StageCache } from "./stage-cache.js";
import { Progress } from "./progress.js";
import { RunIndex, type RunEntry } from "./run-index.js";
import type { BuildServices } from "./services.js";
import { acquireBuildLock } from "./build-lock.js";
import { resumeConfig } from "./resume-settings.js";
import { buildFingerprint, stageFingerprint } from "./stage-code.js";
import { AGENT_ROLES } from "../core/config.js";
import { embeddedBuild, type BuildBackend } from "./build-backend.js";

export interface BuildOptions {
  config: FoundryConfig;
  /** Domain ids under `paths.sources`; default: every domain there. */
  domains?: string[];
  paths?: Partial<RunEntry["paths"]>;
  progress?: Progress;
  /** Test hook, see BuildServices.onNode. */
  onNode?: (node: string) => void;
  /** Builds the chat models of configured roles (tests inject scripted models here). */
  modelFactory?: ModelFactory;
  /** Pause after SOP extraction and after the environment build for a person's review. */
  review?: boolean;
  /** Checkpoints and per-slot work: embedded (default) or the postgres backend. */
  backend?: BuildBackend;
}

export interface DomainOutcome {
  domain: string;
  /** Set when the run paused for a person's review (--review). */
  paused: { stage: string; message: string } | null;
  released: number;
  dropped: number;
  written: string[];
  records: BuildStateType["records"];
  stages: BuildStateType["stages"];
}

/** Figures of this run per stage: time, stage-cache hits, model calls and tokens. */
export interface RunStageStats {
  stage: string;
  ms: number;
  cache_hits: number;
  model_calls: number;
  tokens_in: number;
  tokens_out: number;
}

export interface BuildOutcome {
  run: string;
  domains: DomainOutcome[];
  cache: { hits: number; misses: number };
  stats: RunStageStats[];
}

function resolvePaths(config: FoundryConfig, p: Partial<RunEntry["paths"]> = {}): RunEntry["paths"] {
  const generated = p.generated ?? "generated";
  return { sources: p.sources ?? "sources", sop: p.sop ?? "sop", generated, cache: p.cache ?? (config.cache_dir === "generated/cache" ? join(generated, "cache") : config.cache_dir) };
}

/**
 * Crash switch for the resume test: with FOUNDRY_TEST_KILL_AT=<node> and FOUNDRY_TEST_KILL_MARKER=<file>,
 * the process kills itself (SIGKILL, no clean-up) when that node starts, once: the marker file
 * records that it happened, so the resumed run goes through.
 */
function killSwitch(env: NodeJS.ProcessEnv): ((n: string) => void) | undefined {
  const at = env.FOUNDRY_TEST_KILL_AT;
  const marker = env.FOUNDRY_TEST_KILL_MARKER;
  if (!at || !marker) return undefined;
  return (node) => {
    if (node !== at || existsSync(marker)) return;
    writeFileSync(marker, node);
    process.kill(process.pid, "SIGKILL");
  };
}

/** The services of a build's graph (also of a postgres worker's slot graph). */
export function makeServices(config: FoundryConfig, paths: RunEntry["paths"], progress: Progress, onNode: ((n: string) => void) | undefined, modelFactory?: ModelFactory, backend: Pick<BuildBackend, "responseCache"> = {}, domains: readonly string[] = []): BuildServices & { close(): void } {
  const anyModel = config.model !== "deterministic" || Object.values(config.models).some((m) => m !== "deterministic");
  const runtime = anyModel ? createLlmRuntime({ ...config, cache_dir: paths.cache }, { ...(modelFactory ? { modelFactory } : {}), ...(backend.responseCache ? { cache: backend.responseCache } : {}) }) : null;
  const s = chooseStrategies(config, runtime, { simulatedDomains: domains.some((d) => cardEnvironment(join(paths.sources, d)) === "simulated") });
  return {
    designer: s.designer,
    rubricWriter: s.rubricWriter,
    solver: s.solver,
    repairer: s.repairer,
    calibrator: s.calibrator,
    worldDrafter: s.worldDrafter,
    envConfigWriter: s.envConfigWriter,
    simulated: s.simulated,
    strategies: s.names,
    extractSop: s.extractSop,
    progress,
    models: Object.fromEntries(AGENT_ROLES.map((r) => [r, s.names[r] ?? "deterministic"])),
    modelSettings: anyModel ? { base_url: config.base_url, temperature: config.temperature } : {},
    codeFingerprint: buildFingerprint(),
    cache: new StageCache(join(paths.cache, "stages"), (stage) => stageFingerprint(stage, s.names)),
    contexts: new Map(),
    runStats: new Map(),
    llmUsage: () => Object.fromEntries(Object.entries(runtime?.stats().usage.byStage ?? {}).map(([k, v]) => [k, { modelCalls: v.modelCalls, cacheHits: v.cacheHits, tokensIn: v.tokensIn, tokensOut: v.tokensOut }])),
    ...(onNode ? { onNode } : {}),
    close: () => runtime?.close(),
  };
}

/** Run one domain thread to its end or to a review pause (a fresh start, or a continuation). */
async function runThread(entry: RunEntry, domain: string, svc: BuildServices, fresh: boolean, approve: boolean, backend: BuildBackend): Promise<DomainOutcome> {
  const app = backend.compile(await backend.checkpointer(entry));
  // LangGraph types `context` by the graph's context schema; the services object is passed as is.
  const config = { configurable: { thread_id: `${entry.run}/${domain}` }, context: svc as unknown as Record<string, unknown>, durability: "sync" as const, recursionLimit: 200 };
  const snapshot = await app.getState(config);
  const hasCheckpoint = Boolean(snapshot.config?.configurable?.checkpoint_id);
  const waiting = snapshot.tasks.some((t) => t.interrupts.length > 0);
  if (!hasCheckpoint || fresh) await app.invoke({ domain, paths: entry.paths, seed: entry.seed, review: entry.review }, config);
  else if (waiting && approve) await app.invoke(new Command({ resume: "approved" }), config);
  else if (!waiting && snapshot.next.length > 0) await app.invoke(null, config);
  const after = await app.getState(config);
  const pause = after.tasks.flatMap((t) => t.interrupts)[0];
  const final = after.values as BuildStateType;
  return {
    domain,
    paused: pause ? (pause.value as { stage: string; message: string }) : null,
    released: (final.records ?? []).filter((r) => r.status === "verified").length + (final.simRecords ?? []).filter((r) => r.status === "released").length,
    dropped: (final.records ?? []).filter((r) => r.status === "dropped").length + (final.simRecords ?? []).filter((r) => r.status === "dropped").length,
    written: final.written ?? [],
    records: final.records ?? [],
    stages: final.stages ?? [],
  };
}

/** `synth build`: one graph run per domain, checkpointed so `synth resume` can finish it. */
export async function runBuild(opts: BuildOptions): Promise<BuildOutcome> {
  const paths = resolvePaths(opts.config, opts.paths);
  const domains = opts.domains && opts.domains.length > 0 ? opts.domains : listDomainDirs(paths.sources).map((d) => d.split(/[/\\]/).pop() as string);
  if (domains.length === 0) throw new FoundryError("USAGE", `no domains under ${paths.sources}/`);
  const progress = opts.progress ?? Progress.auto(false);
  // The database URL (it may hold a password) is never written into the run index.
  const entry: RunEntry = { run: `run-${randomBytes(4).toString("hex")}`, domains, paths, seed: opts.config.seed, review: Boolean(opts.review), status: "running", config: { ...opts.config, database_url: null } };
  const backend = opts.backend ?? embeddedBuild;
  const lock = acquireBuildLock(join(paths.generated, "runs"), entry.run);
  try {
    const svc = { ...makeServices(opts.config, paths, progress, opts.onNode ?? killSwitch(process.env), opts.modelFactory, backend, domains), ...(backend.slots ? { slots: backend.slots(entry) } : {}) };
    const index = new RunIndex(join(paths.generated, "runs"));
    index.put(entry);
    progress.emit({ event: "run", run: entry.run, detail: `${domains.length} domain(s); resume with: synth resume ${entry.run}` });
    return await finish(entry, index, svc, true, false, backend);
  } finally {
    lock.release();
  }
}

/** `synth resume [RUN]`: continue a run that crashed or was killed (default: the latest unfinished). */
export async function resumeBuild(opts: {
  /** Configuration for a run recorded without its own (older run indexes). */
  config: FoundryConfig;
  /** Settings given for this resume (command-line flags and environment): they must agree with the run's stored configuration. */
  given?: Record<string, unknown>;
  run?: string;
  generated?: string;
  progress?: Progress;
  onNode?: (n: string) => void;
  modelFactory?: ModelFactory;
  approve?: boolean;
  /** The backend for the run's configuration (a run started on postgres resumes on postgres). Default embedded. */
  backendFor?: (config: FoundryConfig) => Promise<BuildBackend>;
}): Promise<BuildOutcome> {
  const index = new RunIndex(join(opts.generated ?? "generated", "runs"));
  const entry = opts.run ? index.get(opts.run) : index.latestUnfinished();
  if (!entry) throw new FoundryError("USAGE", opts.run ? `no run named ${opts.run} in ${index.file}` : "no unfinished run to resume");
  if (entry.status === "finished") throw new FoundryError("USAGE", `run ${entry.run} finished; there is nothing to resume (start a new build: an unchanged stage comes from the cache)`, { path: "RUN" }, entry.run);
  // The database URL is never stored with a run: it comes from this command's configuration.
  const config = entry.config ? { ...resumeConfig(entry.run, entry.config, opts.given ?? {}, "resume"), database_url: opts.config.database_url } : opts.config;
  const backend = config.backend === "postgres" && opts.backendFor ? await opts.backendFor(config) : embeddedBuild;
  if (backend.kind !== config.backend) throw new FoundryError("USAGE", `run ${entry.run} was started with --backend ${config.backend}: resume it with --backend ${config.backend} and --database-url`, { path: "--backend" }, config.backend);
  const lock = acquireBuildLock(join(entry.paths.generated, "runs"), entry.run);
  try {
    const progress = opts.progress ?? Progress.auto(false);
    progress.emit({ event: "run", run: entry.run, detail: entry.config ? "resuming with the run's stored settings" : "resuming (run recorded without settings: current configuration)" });
    const svc = { ...makeServices(config, entry.paths, progress, opts.onNode ?? killSwitch(process.env), opts.modelFactory, backend, entry.domains), ...(backend.slots ? { slots: backend.slots(entry) } : {}) };
    return await finish(entry, index, svc, false, Boolean(opts.approve), backend);
  } finally {
    lock.release();
  }
}

async function finish(entry: RunEntry, index: RunIndex, svc: BuildServices & { close(): void }, fresh: boolean, approve: boolean, backend: BuildBackend): Promise<BuildOutcome> {
  // One abort listener per Send branch: a wide fan-out is expected, not a leak.
  setMaxListeners(256);
  const outcomes: DomainOutcome[] = [];
  try {
    for (const domain of entry.domains) outcomes.push(await runThread(entry, domain, svc, fresh, approve, backend));
  } catch (e) {
    index.put({ ...entry, status: "failed" });
    throw e;
  } finally {
    svc.close();
  }
  const finished = !outcomes.some((o) => o.paused);
  // A finished run has nothing left to resume: its checkpoints go (a checkpoint per graph step holds
  // the whole build state, about 19 MB for a no-op rebuild of the three sample domains).
  if (finished) {
    const checkpointer = await backend.checkpointer(entry);
    for (const domain of entry.domains) await checkpointer.deleteThread(`${entry.run}/${domain}`);
  }
  index.put({ ...entry, status: finished ? "finished" : "running" });
  const usage = svc.llmUsage();
  const stats = [...svc.runStats].map(([stage, s]) => ({ stage, ms: Math.round(s.ms), cache_hits: s.cacheHits, model_calls: usage[stage]?.modelCalls ?? 0, tokens_in: usage[stage]?.tokensIn ?? 0, tokens_out: usage[stage]?.tokensOut ?? 0 }));
  return { run: entry.run, domains: outcomes, cache: { hits: svc.cache.hits, misses: svc.cache.misses }, stats };
}
