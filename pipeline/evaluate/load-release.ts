import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SimulatedDomainCard, SimulatedTask, type EnvConfig, type DomainCard, type Task, type Trace, type WorldModel } from "../schemas/index.js";
import { FoundryError } from "../core/errors.js";
import { compileWorld, type CompiledWorld } from "../world/compile-world.js";
import type { InitialState } from "../world/build-state.js";
import type { KnowledgeDocument } from "../world/documents-tool.js";
import { resolveReleaseDir } from "../release/resolve-release-dir.js";
import { compareVersions } from "../sop/select-rules.js";
import { verifyIntegrity, type ReleaseFiles } from "../../validation/audit/verify-integrity.js";
import type { ReleaseManifest } from "../schemas/index.js";
import { parseFile, parseOwnFiles, readReleaseTask, listDomainTasks, releaseDomainIds } from "../../validation/audit/parse-release.js";
import { isSimulatedDomain } from "../../validation/audit/audit-simulated.js";
import { KnowledgeBaseFile } from "../../validation/audit/knowledge-document.js";
import { ReleaseEnvConfigs } from "./release-env-configs.js";
import { ReleaseGoldens } from "./release-goldens.js";
import type { KnowledgeDocumentEntry } from "../../validation/audit/knowledge-document.js";
import { storedState } from "../../validation/audit/audit-task.js";
import { domainFiles, envConfigFile, goldenFile, isEnvConfig, isValidationReport, parseDomainPath, taskFile } from "../../validation/audit/release-layout.js";

/** One domain of a release, ready to run episodes on. */
export interface EvalDomain {
  id: string;
  card: DomainCard;
  world: WorldModel;
  compiled: CompiledWorld;
  /** Base initial state (before task overlays), hash recomputed from the stored rows. */
  base: InitialState;
  documents: readonly KnowledgeDocument[];
}

/** One task of a release with its domain and golden trace. */
export interface EvalTask {
  domain: EvalDomain;
  task: Task;
  /** Read from the release when asked for (release-goldens.ts: checked at load, a few kept). */
  readonly golden: Trace;
  /**
   * The task's environment configuration (simulated and hybrid evaluation), read from the release
   * when called (release-env-configs.ts: checked at load, not kept); null when the release ships none.
   */
  env_config: (() => EnvConfig) | null;
}

/** One task of a simulated-only domain (no world, checks or golden trace): run under the simulator, scored by its rubric only. */
export interface EvalSimulatedTask {
  domain: { id: string; card: SimulatedDomainCard; documents: readonly KnowledgeDocument[] };
  task: SimulatedTask;
  /** Its environment configuration, read from the release when called (checked at load). */
  env_config: () => EnvConfig;
}

/** A release as the evaluator reads it: verified first, then parsed. */
export interface EvalRelease {
  dir: string;
  name: string;
  version: string;
  root_hash: string;
  domains: EvalDomain[];
  /** Every released executable task, by domain then task id. */
  tasks: EvalTask[];
  /** Every released simulated-only task, by domain then task id (kept apart: never judged by checks). */
  simulated: EvalSimulatedTask[];
}

/** An EvalTask whose golden trace is read on demand. */
class ReleaseTask implements EvalTask {
  constructor(
    readonly domain: EvalDomain,
    readonly task: Task,
    private readonly goldens: ReleaseGoldens,
    readonly env_config: (() => EnvConfig) | null,
  ) {}

  get golden(): Trace {
    return this.goldens.get(this.domain.id, this.task.id);
  }
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/**
 * The release folder an argument names: a folder path, `NAME@X.Y.Z`, or `NAME` alone (its newest
 * version under `root`).
 */
export function findReleaseDir(arg: string, root = join("generated", "releases")): string {
  // A bare name is a release name when `root` holds it (a folder of that name in the working
  // directory, such as bench/, is not a release); otherwise it must be a path.
  if (NAME.test(arg) && (existsSync(join(root, arg)) || !existsSync(arg))) {
    const dir = join(root, arg);
    const versions = existsSync(dir) ? readdirSync(dir).filter((v) => /^\d+\.\d+\.\d+$/.test(v) && statSync(join(dir, v)).isDirectory()) : [];
    if (versions.length === 0) throw new FoundryError("RELEASE_NOT_FOUND", `no release named ${arg} (no X.Y.Z folder under ${dir})`, { file: dir }, arg);
    return join(dir, versions.sort(compareVersions).at(-1) as string);
  }
  return resolveReleaseDir(arg, root);
}

/**
 * Read a release for evaluation. Its files are checked against the manifest with the audit's
 * integrity check first; a tampered release is refused with one error per bad file (an
 * AggregateError when there are several), before anything of it is used.
 */
export function loadEvalRelease(arg: string, root?: string): EvalRelease {
  const dir = findReleaseDir(arg, root);
  // Kept in memory: the domains' own files and tasks. Golden traces and environment configurations
  // are hashed here, checked below and read again when an episode needs them; violation traces and
  // validation reports are the audit's and are not read.
  const integrity = verifyIntegrity(dir, { keep: (path) => !isValidationReport(path) && !isEnvConfig(path) && (parseDomainPath(path)?.kind ?? "task") === "task" });
  const refuse = (failures: Array<{ file: string; reason: string }>): never => {
    const errors = failures.map((f) => new FoundryError("RELEASE_TAMPERED", `refusing to evaluate: ${f.reason}`, { file: join(dir, f.file) }));
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, `refusing to evaluate ${dir}: ${errors.length} files do not match the manifest`);
  };
  if (!integrity.manifest || integrity.failures.length > 0) refuse(integrity.failures);
  const manifest = integrity.manifest!;
  const release = { manifest, contents: integrity.contents };
  const problems: Array<{ file: string; reason: string }> = [];
  const domains: EvalDomain[] = [];
  const tasks: EvalTask[] = [];
  const configs = new ReleaseEnvConfigs(integrity.contents);
  const simulated: EvalSimulatedTask[] = [];
  const documents = new Map<string, KnowledgeDocumentEntry[]>();
  const goldens = new ReleaseGoldens(integrity.contents, documents);
  for (const id of releaseDomainIds(manifest)) {
    if (isSimulatedDomain(release, id)) {
      simulated.push(...simulatedTasks(release, id, configs, problems));
      continue;
    }
    // The validation report is the audit's: not read.
    const d = parseOwnFiles(release, id, problems, () => null);
    if (!d.card || !d.world || !d.state) continue;
    const compiled = compileWorld(d.world, domainFiles(id).world);
    const domain: EvalDomain = { id, card: d.card, world: d.world, compiled, base: storedState(compiled, d.state, d.card.generation.seed), documents: d.documents };
    domains.push(domain);
    documents.set(id, d.documents);
    // Violation traces are the audit's; an episode never reads them.
    const listing = listDomainTasks(release, id);
    listing.violations.clear();
    for (const name of listing.tasks) {
      const { task, golden } = readReleaseTask(release, id, name, listing, d.documents, problems);
      if (!task) continue;
      if (!golden) problems.push({ file: `${goldenFile(id, task.id)}`, reason: "required file is missing from the release" });
      else tasks.push(new ReleaseTask(domain, task, goldens, configs.check(id, task.id, problems) ? () => configs.load(id, task.id) : null));
    }
  }
  if (problems.length > 0) refuse(problems);
  return { dir, name: manifest.name, version: manifest.version, root_hash: manifest.root_hash, domains, tasks, simulated };
}

/** The simulated-only tasks of one domain: card, documents, each task and its configuration (checked now, read when run). */
function simulatedTasks(release: { manifest: ReleaseManifest; contents: ReleaseFiles }, id: string, configs: ReleaseEnvConfigs, problems: Array<{ file: string; reason: string }>): EvalSimulatedTask[] {
  const paths = domainFiles(id);
  const card = parseFile(release.contents, paths.card, SimulatedDomainCard, problems, true);
  const documents = parseFile(release.contents, paths.documents, KnowledgeBaseFile, problems, true) as KnowledgeDocument[] | null;
  if (!card || !documents) return [];
  const domain = { id, card, documents };
  const out: EvalSimulatedTask[] = [];
  for (const name of listDomainTasks(release, id).tasks) {
    const task = parseFile(release.contents, taskFile(id, name), SimulatedTask, problems, true);
    if (!task) continue;
    if (!configs.check(id, task.id, problems)) {
      problems.push({ file: envConfigFile(id, task.id), reason: "a simulated-only task's environment configuration is required (the simulator answers from it)" });
      continue;
    }
    out.push({ domain, task, env_config: () => configs.load(id, task.id) });
  }
  return out;
}
