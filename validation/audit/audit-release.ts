import { basename, resolve } from "node:path";
import { compileWorld } from "../../pipeline/world/compile-world.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import type { ReleaseManifest } from "../../pipeline/schemas/index.js";
import { auditTask, storedState, type AuditDomain, type RecordedMutant, type TaskAudit } from "./audit-task.js";
import { listDomainTasks, readReleaseTask, releaseDomainIds, type ReleaseContents } from "./parse-release.js";
import { parseAuditDomain } from "./report-claims.js";
import { goldenFile, MANIFEST_FILE, domainFiles, isEnvConfig, isValidationReport, parseDomainPath, taskFile, STAGING_FOLDER } from "./release-layout.js";
import { checkDerivedFiles } from "./derived-files.js";
import { verifyIntegrity, type FileFailure } from "./verify-integrity.js";
import { checkEnvConfig, SharedParts, strayEnvConfigs } from "./env-config-check.js";
import { auditSimulatedDomain, isSimulatedDomain, type SimulatedTaskAudit } from "./audit-simulated.js";

/** Everything `synth audit` reports. */
export interface AuditReport {
  /** True only when the folder is a finished release, every file matches the manifest (and the pinned root hash), every derived file matches its source, every golden trace passes, and every violation trace the report lists is stored and fails as recorded. */
  ok: boolean;
  release: { name: string; version: string; root_hash: string } | null;
  /** The root hash the caller pinned (`--root`), or null when none was. */
  pinned_root: string | null;
  /** Released executable tasks found (the manifest's count of all tasks when the integrity check refused the release). */
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
  /**
   * Simulated-only tasks (present only when the release holds a simulated-only domain): audited
   * apart, never replayed — files, cited clauses, the trajectory's sha256 and the stored votes re-voted.
   */
  simulated?: { tasks: number; per_task: SimulatedTaskAudit[] };
}

/** Figures of a domain the manifest's counts are checked against. */
interface DomainCounts {
  id: string;
  tasks: number;
  documents: number;
  checks: number;
  industry: string | null;
}

/**
 * Audit one domain task by task: each task's files are read (and their hashes checked again),
 * parsed, replayed and judged, then let go; only the per-task verdicts stay in memory.
 */
function auditDomain(release: ReleaseContents, id: string, problems: FileFailure[]): { counts: DomainCounts; audits: TaskAudit[] } {
  const domain = parseAuditDomain(release, id, problems);
  checkDerivedFiles(domain, release.contents, problems);
  const listing = listDomainTasks(release, id);
  const counts: DomainCounts = { id, tasks: 0, documents: domain.documents.length, checks: 0, industry: domain.card?.industry ?? null };
  const paths = domainFiles(domain.id);
  let ctx: AuditDomain | null = null;
  if (domain.world && domain.state) {
    try {
      const compiled = compileWorld(domain.world, paths.world);
      ctx = { id: domain.id, compiled, base: storedState(compiled, domain.state, domain.card?.generation.seed ?? 0), documents: domain.documents };
    } catch (e) {
      problems.push({ file: FoundryError.is(e) && e.location.file ? e.location.file : paths.world, reason: (e as Error).message.split("\n")[0] ?? "unusable world" });
    }
  }
  // Only the claims the audit compares are read of the validation report (report-claims.ts).
  const report = domain.validation !== null;
  const entries = domain.validation?.mutants ?? new Map<string, RecordedMutant[]>();
  const released = domain.validation?.released ?? new Set<string>();
  const held = new Set<string>();
  const shared = new SharedParts(release.contents, id);
  const audits: TaskAudit[] = [];
  for (const name of listing.tasks) {
    let files;
    try {
      files = readReleaseTask(release, id, name, listing, domain.documents, problems);
    } catch (e) {
      problems.push({ file: FoundryError.is(e) && e.location.file ? e.location.file : taskFile(id, name), reason: (e as Error).message });
      continue;
    }
    const task = files.task;
    if (!task) continue;
    held.add(task.id);
    counts.tasks++;
    counts.checks += task.checks.goal.length + task.checks.process.length + task.checks.protection.length;
    if (!ctx) continue;
    if (report && !released.has(task.id)) problems.push({ file: taskFile(domain.id, task.id), reason: "the validation report does not release this task" });
    if (!files.golden) problems.push({ file: goldenFile(domain.id, task.id), reason: "required file is missing from the release" });
    checkEnvConfig(release.contents, ctx, shared, task, problems);
    try {
      audits.push(auditTask(ctx, task, files.golden ?? undefined, files.violations, entries.get(task.id) ?? []));
    } catch (e) {
      problems.push({ file: taskFile(domain.id, task.id), reason: `cannot be audited: ${(e as Error).message.split("\n")[0]}` });
    }
  }
  if (ctx) {
    for (const name of [...released].sort()) {
      if (!held.has(name)) problems.push({ file: taskFile(domain.id, name), reason: "the validation report releases this task but the release does not hold it" });
    }
    problems.push(...strayEnvConfigs(release.contents, domain.id, held, shared));
    for (const name of listing.violations.keys()) {
      if (!held.has(name)) problems.push({ file: `domains/${domain.id}/violations/${name}`, reason: "violation traces of a task the release does not hold" });
    }
  }
  return { counts, audits };
}

function countProblems(manifest: ReleaseManifest, domains: DomainCounts[]): FileFailure[] {
  const out: FileFailure[] = [];
  const expect = (what: string, declared: number, found: number) => {
    if (declared !== found) out.push({ file: MANIFEST_FILE, reason: `counts.${what} is ${declared}, the release holds ${found}` });
  };
  const declared = Object.keys(manifest.counts.by_domain).sort();
  const found = domains.map((d) => d.id);
  if (declared.join(",") !== found.join(",")) out.push({ file: MANIFEST_FILE, reason: `counts.by_domain names [${declared.join(", ")}], the release holds domains [${found.join(", ")}]` });
  expect("domains", manifest.counts.domains, domains.length);
  expect("tasks", manifest.counts.tasks, domains.reduce((n, d) => n + d.tasks, 0));
  expect("documents", manifest.counts.documents, domains.reduce((n, d) => n + d.documents, 0));
  expect("checks", manifest.counts.checks, domains.reduce((n, d) => n + d.checks, 0));
  for (const d of domains) {
    const entry = manifest.counts.by_domain[d.id];
    if (!entry) continue;
    expect(`by_domain.${d.id}.tasks`, entry.tasks, d.tasks);
    expect(`by_domain.${d.id}.documents`, entry.documents, d.documents);
    if (d.industry !== null && entry.industry !== d.industry) out.push({ file: MANIFEST_FILE, reason: `counts.by_domain.${d.id}.industry is "${entry.industry}", the domain card says "${d.industry}"` });
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
  // Per-task files (tasks, golden and violation traces) are hashed here and read again one task at a
  // time below: memory holds the domains' own files and one task, whatever the number of tasks.
  // The validation report is read again once, when parsed: it grows with the tasks (tens of MB at 10,000) and its bytes are not needed after.
  const integrity = verifyIntegrity(dir, { keep: (path) => parseDomainPath(path) === null && !isValidationReport(path) && !isEnvConfig(path) });
  const { manifest } = integrity;
  const release = manifest ? { name: manifest.name, version: manifest.version, root_hash: manifest.root_hash } : null;
  if (manifest && pinned !== null && manifest.root_hash !== pinned) {
    integrity.failures.unshift({ file: MANIFEST_FILE, reason: `root_hash ${manifest.root_hash} is not the pinned root ${pinned}: this is not the release that root names` });
  }
  if (!manifest || integrity.failures.length > 0) {
    return { ok: false, release, pinned_root: pinned, tasks: manifest?.counts.tasks ?? 0, hash_failures: integrity.failures, ...empty };
  }
  const problems: FileFailure[] = [];
  const contents: ReleaseContents = { manifest, contents: integrity.contents };
  const ids = releaseDomainIds(manifest);
  const simulatedIds = new Set(ids.filter((id) => isSimulatedDomain(contents, id)));
  const all = ids.map((id) => (simulatedIds.has(id) ? { simulated: auditSimulatedDomain(contents, id, problems) } : { executable: auditDomain(contents, id, problems) }));
  const domains = all.flatMap((d) => (d.executable ? [d.executable] : []));
  const simulated = all.flatMap((d) => (d.simulated ? [d.simulated] : []));
  problems.push(...countProblems(manifest, all.map((d) => (d.executable ?? d.simulated).counts)));
  const simulatedTasks = simulated.flatMap((d) => d.audits);
  const perTask = domains.flatMap((d) => d.audits);
  const mutants = perTask.flatMap((t) => t.mutants);
  const tasks = domains.reduce((n, d) => n + d.counts.tasks, 0);
  const goldenPassed = perTask.filter((t) => t.golden.passed).length;
  const notStored = perTask.reduce((n, t) => n + t.mutants_not_stored.length, 0);
  return {
    ok: problems.length === 0 && goldenPassed === tasks && perTask.every((t) => t.ok) && notStored === 0 && simulatedTasks.every((t) => t.ok),
    release,
    pinned_root: pinned,
    tasks,
    golden_passed: goldenPassed,
    hash_failures: [],
    problems,
    mutants: { total: mutants.length, killed: mutants.filter((m) => m.killed).length, not_stored: notStored },
    per_task: perTask,
    ...(simulatedIds.size > 0 ? { simulated: { tasks: simulatedTasks.length, per_task: simulatedTasks } } : {}),
  };
}
