import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { canonicalJson, stableJson } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { checkDomainIds } from "../core/domain-id.js";
import { PIPELINE_VERSION } from "../core/version.js";
import type { ReleaseManifest } from "../schemas/index.js";
import { writeJsonSchemas, writeSimulatedJsonSchemas } from "../schemas/json-schema.js";
import { cardEnvironment } from "../sources/card-environment.js";
import { collectSimulatedDomain, type SimulatedSummary } from "./collect-simulated.js";
import { auditRelease, type AuditReport } from "../../validation/audit/audit-release.js";
import { DATASHEET_FILE, MANIFEST_FILE, schemaFile } from "../../validation/audit/release-layout.js";
import { collectDomain, memoryFile, type DomainSummary, type FileInspector, type PlannedFile } from "./collect-domain.js";
import { verifyIntegrity } from "../../validation/audit/verify-integrity.js";
import { renderDatasheet, type AuditFigures, type BuildFacts } from "./datasheet.js";
import { buildManifest } from "./build-manifest.js";
import { gitRevision } from "./git-revision.js";
import { shapingPackageVersions } from "./package-versions.js";
import { releaseStats, type ReleaseStats } from "./release-stats.js";
import { compareVersions } from "../sop/select-rules.js";
import { publishRelease, releaseExists, type StageHooks } from "./stage-release.js";

export interface ExportOptions {
  /** Release name: lowercase letters, digits, `-`, `_`. */
  name: string;
  /** Semantic version `X.Y.Z`; an existing version is never overwritten. */
  version: string;
  /** Domain ids to include (each must have `generated/<d>/validation.json`). */
  domains: readonly string[];
  /** Where the per-domain artifacts are. Default `generated`. */
  generatedDir?: string;
  /** Where the domain cards and documents are. Default `sources`. */
  sourcesDir?: string;
  /** Parent of `<name>/<version>/`. Default `generated/releases`. */
  outRoot?: string;
  /** The version this one replaces. Default: the newest existing version of `name` under `outRoot` below `version`, or none. */
  replaces?: string | null;
  /** Source revision for the manifest. Default: `git rev-parse HEAD` in `sourcesDir`, or `unknown`. */
  revision?: string;
  /** Audit the staged folder before publishing and refuse a release that does not audit clean. Default true. */
  verify?: boolean;
  /** Test hooks into the staging step (see stage-release.ts). */
  hooks?: StageHooks;
}

export interface ExportResult {
  /** The release folder (`outRoot/name/version`). */
  dir: string;
  manifest: ReleaseManifest;
  /** Audit of the staged release; null when `verify` was false. */
  audit: AuditReport | null;
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/;
const VERSION = /^\d+\.\d+\.\d+$/;

function checkOptions(o: ExportOptions): void {
  if (!NAME.test(o.name)) throw new FoundryError("USAGE", "release name must be lowercase letters, digits, '-' or '_'", { path: "name" }, o.name);
  if (!VERSION.test(o.version)) throw new FoundryError("USAGE", "release version must be X.Y.Z", { path: "version" }, o.version);
  if (o.domains.length === 0) throw new FoundryError("USAGE", "a release needs at least one domain", { path: "domains" });
  checkDomainIds(o.domains, "domains");
  if (o.replaces != null && (!VERSION.test(o.replaces) || compareVersions(o.replaces, o.version) >= 0)) {
    throw new FoundryError("USAGE", `the replaced version must be X.Y.Z and older than ${o.version}`, { path: "replaces" }, o.replaces);
  }
}

/** The newest published version of `name` under `outRoot` that is older than `version`, or null. */
export function previousVersion(outRoot: string, name: string, version: string): string | null {
  const dir = join(outRoot, name);
  if (!existsSync(dir)) return null;
  const older = readdirSync(dir).filter((v) => VERSION.test(v) && compareVersions(v, version) < 0).sort(compareVersions);
  return older.at(-1) ?? null;
}

/**
 * One value all domains' build records agree on (the seed, the models): the manifest states one, so
 * domains built differently are refused rather than described by one of them.
 */
function agreed<T>(domains: ReadonlyArray<Pick<DomainSummary, "id" | "record">>, what: string, code: string, pick: (d: Pick<DomainSummary, "record">) => T): T {
  const values = new Map(domains.map((d) => [canonicalJson(pick(d)), pick(d)]));
  if (values.size === 1) return [...values.values()][0] as T;
  throw new FoundryError(code, `the domains' build records disagree on the ${what} (${domains.map((d) => `${d.id}: ${canonicalJson(pick(d))}`).join(", ")}); release them separately, or rebuild them alike`, { path: what });
}

/** Refuses text artifacts that carry an absolute path of this machine: a release must read the same anywhere. */
function absolutePathInspector(roots: readonly string[]): FileInspector {
  const needles = [...new Set(roots.filter((r) => r.length > 1))];
  return (path, bytes) => {
    if (!/\.(json|md)$/.test(path)) return;
    const text = bytes.toString("utf8");
    const hit = needles.find((n) => text.includes(n));
    if (hit) throw new FoundryError("RELEASE_ABSOLUTE_PATH", "an artifact contains an absolute path of this machine", { file: path }, hit);
  };
}

/** A release's files before its datasheet: the domains' files and the JSON Schemas, with what the datasheet and manifest state. */
interface CollectedRelease {
  files: PlannedFile[];
  domains: DomainSummary[];
  /** Simulated-only domains, reported apart. */
  simulated: SimulatedSummary[];
  stats: ReleaseStats;
  facts: BuildFacts;
  inspect: FileInspector;
}

function collectRelease(o: ExportOptions): CollectedRelease {
  const generatedDir = o.generatedDir ?? "generated";
  const sourcesDir = o.sourcesDir ?? "sources";
  const inspect = absolutePathInspector([resolve(generatedDir), resolve(sourcesDir), process.cwd()]);
  const ids = [...o.domains].sort();
  const isSimulated = (d: string) => cardEnvironment(join(sourcesDir, d)) === "simulated";
  const collected = ids.filter((d) => !isSimulated(d)).map((d) => collectDomain(d, generatedDir, sourcesDir, inspect));
  const simulatedCollected = ids.filter(isSimulated).map((d) => collectSimulatedDomain(d, generatedDir, sourcesDir, inspect));
  const domains = collected.map((c) => c.summary);
  const simulated = simulatedCollected.map((c) => c.summary);
  const files = [...collected.flatMap((c) => c.files), ...simulatedCollected.flatMap((c) => c.files)];
  writeJsonSchemas((artifact, text) => files.push(memoryFile(schemaFile(artifact), Buffer.from(text, "utf8"))));
  // The simulated-only artifacts' schemas only when such a domain is released: an executable release keeps exactly its files.
  if (simulated.length > 0) writeSimulatedJsonSchemas((artifact, text) => files.push(memoryFile(schemaFile(artifact), Buffer.from(text, "utf8"))));
  const all = [...domains, ...simulated];
  const facts: BuildFacts = {
    name: o.name,
    version: o.version,
    replaces: o.replaces !== undefined ? o.replaces : previousVersion(o.outRoot ?? join("generated", "releases"), o.name, o.version),
    seed: agreed(all, "seed", "RELEASE_SEED_AMBIGUOUS", (d) => d.record.seed),
    pipeline: { version: PIPELINE_VERSION, revision: o.revision ?? gitRevision(sourcesDir) },
    packages: shapingPackageVersions(),
    models: agreed(all, "models", "RELEASE_MODELS_AMBIGUOUS", (d) => d.record.models),
  };
  return { files, domains, simulated, stats: releaseStats(domains), facts, inspect };
}

/** The collected files plus the datasheet (stating `audit`'s figures when given), and the manifest of them all. */
function finishRelease(c: CollectedRelease, audit: AuditFigures | null): { files: PlannedFile[]; manifest: ReleaseManifest } {
  const datasheet = Buffer.from(renderDatasheet(c.domains, c.stats, c.facts, audit, c.simulated), "utf8");
  c.inspect(DATASHEET_FILE, datasheet);
  const files = [...c.files, memoryFile(DATASHEET_FILE, datasheet)];
  return { files, manifest: buildManifest(files, c.domains, c.stats, c.facts, c.simulated) };
}

/** Every file of the release except the manifest, and the manifest itself. */
export function planRelease(o: ExportOptions, audit: AuditFigures | null = null): { files: PlannedFile[]; manifest: ReleaseManifest; domains: DomainSummary[] } {
  const collected = collectRelease(o);
  return { ...finishRelease(collected, audit), domains: collected.domains };
}

const manifestFile = (manifest: ReleaseManifest): PlannedFile => memoryFile(MANIFEST_FILE, Buffer.from(stableJson(manifest), "utf8"));

/**
 * Export a frozen release to `outRoot/name/version/`: the chosen domains' documents, world, initial
 * database, released tasks, golden (and stored violation) traces, validation reports, JSON Schemas,
 * a datasheet and a manifest hashing every file. All or nothing, never over an existing version,
 * read-only once published, and byte-identical for the same inputs.
 *
 * The files are written once, into the staging folder, and audited there. The datasheet states the
 * audit's figures: the staged release is audited with a datasheet that does not state them yet (the
 * replays and violation traces do not depend on the datasheet), then the datasheet and the manifest
 * are rewritten with the figures and every file is checked against the final manifest again.
 */
export function exportRelease(options: ExportOptions): ExportResult {
  checkOptions(options);
  const dir = join(options.outRoot ?? join("generated", "releases"), options.name, options.version);
  if (existsSync(dir)) throw releaseExists(dir);
  const collected = collectRelease(options);
  const first = finishRelease(collected, null);
  let manifest = first.manifest;
  let audit: AuditReport | null = null;
  publishRelease(dir, [...first.files, manifestFile(first.manifest)], {
    ...options.hooks,
    beforePublish: (staging) => {
      options.hooks?.beforePublish?.(staging);
      if (options.verify === false) return;
      const report = auditRelease(staging, { staging: true });
      refuseUnclean(report);
      const figures: AuditFigures = { files: first.files.length + 1, tasks: report.tasks, golden_passed: report.golden_passed, mutants: { total: report.mutants.total, killed: report.mutants.killed } };
      const final = finishRelease(collected, figures);
      for (const f of [final.files.find((x) => x.path === DATASHEET_FILE) as PlannedFile, manifestFile(final.manifest)]) writeFileSync(join(staging, f.path), f.bytes());
      // Every file again against the final manifest (hashes only: nothing the replays read changed).
      const integrity = verifyIntegrity(staging, { keep: () => false });
      refuseUnclean({ ...report, ok: integrity.failures.length === 0, hash_failures: integrity.failures });
      manifest = final.manifest;
      audit = { ...report, release: { name: manifest.name, version: manifest.version, root_hash: manifest.root_hash } };
    },
  });
  return { dir, manifest, audit };
}

/** Refuse to publish a staged release that does not audit clean, naming the first reason. */
function refuseUnclean(audit: AuditReport): void {
  if (audit.ok) return;
  const first = audit.hash_failures[0] ?? audit.problems[0];
  const task = audit.per_task.find((t) => !t.ok);
  const why = first ? `${first.file}: ${first.reason}` : task ? `task ${task.domain}/${task.task}: ${task.golden.mismatches[0] ?? task.golden.failed_checks[0]?.reason ?? task.mutants.find((m) => !m.ok)?.reason ?? "failed"}` : "failed";
  throw new FoundryError("RELEASE_AUDIT_FAILED", `the staged release does not audit clean, so it was not published — ${why}`, first ? { file: first.file } : {});
}
