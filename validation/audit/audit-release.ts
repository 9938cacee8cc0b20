import { basename, resolve } from "node:path";
import { compileWorld } from "../../pipeline/world/compile-world.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import type { ReleaseManifest } from "../../pipeline/schemas/index.js";
import { auditTask, storedState, type AuditDomain, type TaskAudit } from "./audit-task.js";
import { parseReleaseDomain, releaseDomainIds, type ReleaseDomain } from "./parse-release.js";
import { goldenFile, MANIFEST_FILE, domainFiles, taskFile, STAGING_FOLDER } from "./release-layout.js";
import { checkDerivedFiles } from "./derived-files.js";
import { verifyIntegrity, type FileFailure } from "./verify-integrity.js";

/** Everything `synth audit` reports. */
export interface AuditReport {
  /** True only when the folder is a finished release, every file matches the manifest (and the pinned root hash), every derived file matches its source, every golden trace passes, and every violation trace the report lists is stored and fails as recorded. */
  ok: boolean;
  release: { name: string; version: string; root_hash: string } | null;
  /** The root hash the caller pinned (`--root`), or null when none was. */
  pinned_root: string | null;
  /** Released tasks found (the manifest's count when the integrity check refused the release). */
  tasks: number;
  /** Golden traces that replayed exactly and passed every check. */
  golden_passed: number;
  /** Files that are not what the manifest says; when any, nothing else was run. */
  hash_failures: FileFailure[];
  /** Content problems: unreadable artifacts, counts that disagree with the manifest, tasks the report does not release. */
  problems: FileFailure[];
  /** Stored violation traces re-run, and how many still fail their target check. */
  mutants: { total: number; killed: number; not_stored: number };
  per_task: TaskAudit[];
}

function auditDomain(domain: ReleaseDomain, problems: FileFailure[]): TaskAudit[] {
  const paths = domainFiles(domain.id);
  if (!domain.world || !domain.state) return [];
  let ctx: AuditDomain;
  try {
    const compiled = compileWorld(domain.world, paths.world);
    ctx = { id: domain.id, compiled, base: storedState(compiled, domain.state, domain.card?.generation.seed ?? 0), documents: domain.documents };
  } catch (e) {
    problems.push({ file: FoundryError.is(e) && e.location.file ? e.location.file : paths.world, reason: (e as Error).message.split("\n")[0] ?? "unusable world" });
    return [];
  }
  const report = domain.validation;
  const released = new Set(report?.tasks.filter((t) => t.status === "released").map((t) => t.task) ?? []);
  for (const id of [...released].sort()) {
    if (!domain.tasks.some((t) => t.id === id)) problems.push({ file: taskFile(domain.id, id), reason: "the validation report releases this task but the release does not hold it" });
  }
  const out: TaskAudit[] = [];
  for (const task of domain.tasks) {
    if (report && !released.has(task.id)) problems.push({ file: taskFile(domain.id, task.id), reason: "the validation report does not release this task" });
    const golden = domain.golden.get(task.id);
    if (!golden) problems.push({ file: goldenFile(domain.id, task.id), reason: "required file is missing from the release" });
    const recorded = report?.tasks.find((t) => t.task === task.id)?.mutants ?? [];
    try {
      out.push(auditTask(ctx, task, golden, domain.violations.get(task.id) ?? [], recorded));
    } catch (e) {
      problems.push({ file: taskFile(domain.id, task.id), reason: `cannot be audited: ${(e as Error).message.split("\n")[0]}` });
    }
  }
  for (const task of domain.violations.keys()) {
    if (!domain.tasks.some((t) => t.id === task)) problems.push({ file: `domains/${domain.id}/violations/${task}`, reason: "violation traces of a task the release does not hold" });
  }
  return out;
}

function countProblems(manifest: ReleaseManifest, domains: ReleaseDomain[]): FileFailure[] {
  const out: FileFailure[] = [];
  const expect = (what: string, declared: number, found: number) => {
    if (declared !== found) out.push({ file: MANIFEST_FILE, reason: `counts.${what} is ${declared}, the release holds ${found}` });
  };
  const declared = Object.keys(manifest.counts.by_domain).sort();
  const found = domains.map((d) => d.id);
  if (declared.join(",") !== found.join(",")) out.push({ file: MANIFEST_FILE, reason: `counts.by_domain names [${declared.join(", ")}], the release holds domains [${found.join(", ")}]` });
  expect("domains", manifest.counts.domains, domains.length);
  expect("tasks", manifest.counts.tasks, domains.reduce((n, d) => n + d.tasks.length, 0));
  expect("documents", manifest.counts.documents, domains.reduce((n, d) => n + d.documents.length, 0));
  const checks = domains.reduce((n, d) => n + d.tasks.reduce((m, t) => m + t.checks.goal.length + t.checks.process.length + t.checks.protection.length, 0), 0);
  expect("checks", manifest.counts.checks, checks);
  for (const d of domains) {
    const entry = manifest.counts.by_domain[d.id];
    if (!entry) continue;
    expect(`by_domain.${d.id}.tasks`, entry.tasks, d.tasks.length);
    expect(`by_domain.${d.id}.documents`, entry.documents, d.documents.length);
    if (d.card && entry.industry !== d.card.industry) out.push({ file: MANIFEST_FILE, reason: `counts.by_domain.${d.id}.industry is "${entry.industry}", the domain card says "${d.card.industry}"` });
  }
  return out;
}

export interface AuditOptions {
  /** Expected root hash, read from somewhere the release folder does not control; a different manifest root refuses the release. */
  root?: string;
  /** Audit a staging folder (`.X.Y.Z.partial-PID`): only the exporter does this, on its own staging folder before publishing. */
  staging?: boolean;
}

/**
 * Audit a frozen release without the synthesis machinery: refuse a folder that is an unfinished
 * export; verify the manifest, the pinned root hash and every file's hash (refusing the release,
 * naming each file, on any difference); check every derived file against its source in the
 * release (documents.json against docs/, world.json against world.yaml, the initial database
 * against world and seed); then replay every golden trace from a fresh copy of its domain's
 * initial state plus the task overlay and run its checks, and re-run every stored violation trace
 * against the validation report's claim. Reads only.
 */
export function auditRelease(dir: string, opts: AuditOptions = {}): AuditReport {
  const pinned = opts.root ?? null;
  const empty = { golden_passed: 0, problems: [], mutants: { total: 0, killed: 0, not_stored: 0 }, per_task: [] };
  if (!opts.staging && STAGING_FOLDER.test(basename(resolve(dir)))) {
    return { ok: false, release: null, pinned_root: pinned, tasks: 0, hash_failures: [{ file: ".", reason: "this is the staging folder of an export that did not finish (.X.Y.Z.partial-PID), not a release" }], ...empty };
  }
  const integrity = verifyIntegrity(dir);
  const { manifest } = integrity;
  const release = manifest ? { name: manifest.name, version: manifest.version, root_hash: manifest.root_hash } : null;
  if (manifest && pinned !== null && manifest.root_hash !== pinned) {
    integrity.failures.unshift({ file: MANIFEST_FILE, reason: `root_hash ${manifest.root_hash} is not the pinned root ${pinned}: this is not the release that root names` });
  }
  if (!manifest || integrity.failures.length > 0) {
    return { ok: false, release, pinned_root: pinned, tasks: manifest?.counts.tasks ?? 0, hash_failures: integrity.failures, ...empty };
  }
  const problems: FileFailure[] = [];
  const contents = { manifest, contents: integrity.contents };
  const domains = releaseDomainIds(manifest).map((id) => parseReleaseDomain(contents, id, problems));
  problems.push(...countProblems(manifest, domains));
  for (const d of domains) checkDerivedFiles(d, integrity.contents, problems);
  const perTask = domains.flatMap((d) => auditDomain(d, problems));
  const mutants = perTask.flatMap((t) => t.mutants);
  const tasks = domains.reduce((n, d) => n + d.tasks.length, 0);
  const goldenPassed = perTask.filter((t) => t.golden.passed).length;
  const notStored = perTask.reduce((n, t) => n + t.mutants_not_stored.length, 0);
  return {
    ok: problems.length === 0 && goldenPassed === tasks && perTask.every((t) => t.ok) && notStored === 0,
    release,
    pinned_root: pinned,
    tasks,
    golden_passed: goldenPassed,
    hash_failures: [],
    problems,
    mutants: { total: mutants.length, killed: mutants.filter((m) => m.killed).length, not_stored: notStored },
    per_task: perTask,
  };
}
