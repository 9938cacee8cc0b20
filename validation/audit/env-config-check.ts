import { EnvConfigFile, EnvConfigShared, type Task } from "../../pipeline/schemas/index.js";
import { validateAgainst } from "../../pipeline/core/schema-issues.js";
import { applyOverlay } from "../../pipeline/world/build-state.js";
import { storedConfigLeaks } from "../../pipeline/world/env-config/hidden-values.js";
import { canonicalJson, sha256 } from "../../pipeline/core/canonical-json.js";
import type { AuditDomain } from "./audit-task.js";
import { envConfigFile, envSharedFile, ENV_CONFIGS_DIR, ENV_SHARED_DIR, domainFile } from "./release-layout.js";
import type { FileFailure, ReleaseFiles } from "./verify-integrity.js";

/** The shared parts of one domain's configurations, as the audit has read them (a few are kept: the tasks of a domain mostly share one). */
export class SharedParts {
  private readonly parsed = new Map<string, EnvConfigShared>();
  /** Shared parts found missing or malformed (reported once). */
  private readonly bad = new Set<string>();
  /** Shared parts some held task's configuration names. */
  readonly named = new Set<string>();

  constructor(
    private readonly contents: ReleaseFiles,
    private readonly domain: string,
  ) {}

  /** The shared part filed under `hash`, schema-checked; null (its problems reported the first time) when it is missing or malformed. */
  get(hash: string, problems: FileFailure[]): EnvConfigShared | null {
    this.named.add(hash);
    const kept = this.parsed.get(hash);
    if (kept) return kept;
    if (this.bad.has(hash)) return null;
    const value = this.read(hash, problems);
    if (value === null) {
      this.bad.add(hash);
      return null;
    }
    if (this.parsed.size >= KEPT_SHARED) this.parsed.delete(this.parsed.keys().next().value as string);
    this.parsed.set(hash, value);
    return value;
  }

  private read(hash: string, problems: FileFailure[]): EnvConfigShared | null {
    const file = envSharedFile(this.domain, hash);
    const bytes = this.contents.get(file);
    if (!bytes) {
      problems.push({ file, reason: "a task's environment configuration names this shared part, and the release does not hold it (required file is missing from the release)" });
      return null;
    }
    // The file matches the manifest's sha256 (verified); its name must be that hash too (a shared part is filed under its content).
    const actual = sha256(bytes);
    if (actual !== hash) {
      problems.push({ file, reason: `is filed under ${hash} but its sha256 is ${actual}` });
      return null;
    }
    return parseJson(bytes, file, EnvConfigShared, problems);
  }
}

const KEPT_SHARED = 8;

function parseJson<T extends typeof EnvConfigShared | typeof EnvConfigFile>(bytes: Buffer, file: string, schema: T, problems: FileFailure[]): import("zod").infer<T> | null {
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    problems.push({ file, reason: `not valid JSON: ${(e as Error).message}` });
    return null;
  }
  const r = validateAgainst(schema, data, { file });
  if (!r.ok) {
    for (const i of r.issues.slice(0, 5)) problems.push({ file, reason: `schema: ${i.path ? `${i.path}: ` : ""}${i.message}` });
    return null;
  }
  return r.value as import("zod").infer<T>;
}

/**
 * A task's stored configuration file: present, schema-valid and about this task; null with its
 * problems (each naming the file) otherwise. The audit and the evaluator read it this one way.
 */
export function readEnvConfigFile(contents: ReleaseFiles, domain: string, task: string, problems: FileFailure[]): EnvConfigFile | null {
  const file = envConfigFile(domain, task);
  const bytes = contents.get(file);
  if (!bytes) {
    problems.push({ file, reason: "the released task has no environment configuration (required file is missing from the release)" });
    return null;
  }
  const config = parseJson(bytes, file, EnvConfigFile, problems);
  if (!config) return null;
  if (config.task !== task || config.domain !== domain) {
    problems.push({ file, reason: `is the configuration of ${config.domain}/${config.task}, not of ${domain}/${task}` });
    return null;
  }
  return config;
}

/**
 * The environment configuration of one released task: present, schema-valid, about this task,
 * naming a shared part the release holds (filed under its sha256), and holding no value of a
 * hidden column (hidden-values.ts, on the task's initial state). Each problem names the file.
 */
export function checkEnvConfig(contents: ReleaseFiles, ctx: AuditDomain, shared: SharedParts, task: Task, problems: FileFailure[]): void {
  const file = envConfigFile(ctx.id, task.id);
  const config = readEnvConfigFile(contents, ctx.id, task.id, problems);
  if (!config) return;
  const part = shared.get(config.shared, problems);
  if (!part) return;
  const key = `overlay:${ctx.base.hash}:${sha256(canonicalJson(task.initial_state))}`;
  for (const l of storedConfigLeaks(config, part, config.shared, ctx.compiled, key, () => applyOverlay(ctx.base, ctx.compiled.world, task.initial_state))) {
    const where = l.where === "initial_state" || l.where === "row_rule" || l.where.startsWith("initial_state.") ? file : envSharedFile(ctx.id, config.shared);
    const reason =
      l.value === null ? `lists the hidden column ${l.table}.${l.column} (${l.where})` : l.value === l.column ? `names the hidden column ${l.table}.${l.column} (in ${l.where})` : `holds a value of the hidden column ${l.table}.${l.column} (${JSON.stringify(l.value)}, in ${l.where})`;
    problems.push({ file: where, reason: where === file ? reason : `${reason}, as completed by ${file}` });
  }
}

/** Environment configurations filed for tasks the release does not hold, and shared parts no held task names. */
export function strayEnvConfigs(contents: ReleaseFiles, domain: string, held: ReadonlySet<string>, shared: SharedParts): FileFailure[] {
  const prefix = domainFile(domain, `${ENV_CONFIGS_DIR}/`);
  const sharedPrefix = domainFile(domain, `${ENV_SHARED_DIR}/`);
  const out: FileFailure[] = [];
  for (const p of contents.keys()) {
    if (p.startsWith(sharedPrefix)) {
      if (!shared.named.has(p.slice(sharedPrefix.length, -".json".length))) out.push({ file: p, reason: "shared part of environment configurations that no task of the release names" });
    } else if (p.startsWith(prefix) && !held.has(p.slice(prefix.length, -".json".length))) out.push({ file: p, reason: "environment configuration of a task the release does not hold" });
  }
  return out;
}
