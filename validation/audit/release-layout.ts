/**
 * Where each artifact sits inside a frozen release (`generated/releases/<name>/<version>/`). The
 * exporter writes this layout and the audit, the diff and the evaluator read it; keeping the paths
 * in one place keeps them from drifting apart.
 */

/** The manifest: sha256 of every other file, root hash, seed, pipeline, packages, models, counts. */
export const MANIFEST_FILE = "manifest.json";
/** The datasheet a person reads first. */
export const DATASHEET_FILE = "README.md";

/** `domains/<d>/<rest>`: everything one domain contributes. */
export function domainFile(domain: string, rest: string): string {
  return `domains/${domain}/${rest}`;
}

/** The release-relative paths of one domain's fixed artifacts. */
export function domainFiles(domain: string) {
  return {
    card: domainFile(domain, "domain.json"),
    world: domainFile(domain, "world.json"),
    /** The world model as written (world.yaml of the sources): what world.json and the initial state are checked against. */
    worldSource: domainFile(domain, "world.yaml"),
    state: domainFile(domain, "initial-state.sqlite"),
    documents: domainFile(domain, "documents.json"),
    sop: domainFile(domain, "sop.json"),
    validation: `validation/${domain}.json`,
  };
}

/** Whether a release path is a domain's validation report (`validation/<d>.json`). */
export const isValidationReport = (path: string): boolean => /^validation\/[^/]+\.json$/.test(path);

export const taskFile = (domain: string, task: string): string => domainFile(domain, `tasks/${task}.json`);
export const goldenFile = (domain: string, task: string): string => domainFile(domain, `golden/${task}.json`);
/** Folder (in `generated/<d>/` and a release's `domains/<d>/`) of the tasks' environment configurations. */
export const ENV_CONFIGS_DIR = "env-configs";
export const envConfigFile = (domain: string, task: string): string => domainFile(domain, `${ENV_CONFIGS_DIR}/${task}.json`);
/** Folder (under ENV_CONFIGS_DIR) of the configurations' shared parts, each filed under its sha256. */
export const ENV_SHARED_DIR = `${ENV_CONFIGS_DIR}/shared`;
export const envSharedFile = (domain: string, hash: string): string => domainFile(domain, `${ENV_SHARED_DIR}/${hash}.json`);
/** Whether a release path is an environment configuration or a shared part of configurations (read when a task needs it, not kept). */
export const isEnvConfig = (path: string): boolean => new RegExp(`^domains/[^/]+/${ENV_CONFIGS_DIR}/(?:shared/)?[^/]+\\.json$`).test(path);
export const violationFile = (domain: string, task: string, label: string): string => domainFile(domain, `violations/${task}/${label}.json`);

/**
 * File label of the `ordinal`-th (1-based) mutant of an operator in a task's validation entry:
 * `drop_approval`, then `drop_approval-2`, `drop_approval-3`, … in the order the report lists them.
 */
export function violationLabel(operator: string, ordinal: number): string {
  return ordinal === 1 ? operator : `${operator}-${ordinal}`;
}

/** The ordinal a violation file label gives a trace of `operator` (see violationLabel); null when the label does not belong to it. */
export function violationOrdinal(label: string, operator: string): number | null {
  if (label === operator) return 1;
  const m = /^-(\d+)$/.exec(label.startsWith(operator) ? label.slice(operator.length) : "");
  const n = m ? Number(m[1]) : NaN;
  return Number.isInteger(n) && n >= 2 ? n : null;
}
/** `.X.Y.Z.partial-PID`: the staging folder of an export in progress, or of one that was killed; never a release. */
export const STAGING_FOLDER = /^\.(\d+\.\d+\.\d+)\.partial-(\d+)$/;

export const schemaFile = (artifact: string): string => `schemas/${artifact}.schema.json`;

/** A path the manifest may name: relative, POSIX separators, no empty, `.` or `..` segment. */
export function isSafeReleasePath(path: string): boolean {
  if (path.length === 0 || path.startsWith("/") || path.includes("\\") || path.includes("\0")) return false;
  return path.split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}

/** Parse a release-relative path into its parts, when it is one of a domain's per-task files. */
export function parseDomainPath(path: string): { domain: string; kind: "task" | "golden"; task: string } | { domain: string; kind: "violation"; task: string; label: string } | null {
  const m = /^domains\/([^/]+)\/(tasks|golden)\/([^/]+)\.json$/.exec(path);
  if (m) return { domain: m[1] as string, kind: m[2] === "tasks" ? "task" : "golden", task: m[3] as string };
  const v = /^domains\/([^/]+)\/violations\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (v) return { domain: v[1] as string, kind: "violation", task: v[2] as string, label: v[3] as string };
  return null;
}

/** Folders (in `generated/<d>/` and a release's `domains/<d>/`) of a simulated-only domain's solver trajectories and the rubric verifier's stored verdicts. */
export const TRAJECTORIES_DIR = "trajectories";
export const VERDICTS_DIR = "verdicts";
export const trajectoryFile = (domain: string, task: string): string => domainFile(domain, `${TRAJECTORIES_DIR}/${task}.json`);
export const verdictFile = (domain: string, task: string): string => domainFile(domain, `${VERDICTS_DIR}/${task}.json`);
