import type { z } from "zod";
import { validateAgainst } from "../../pipeline/core/schema-issues.js";
import { DomainCard, Task, Trace, ValidationReport, WorldModel, type ReleaseManifest } from "../../pipeline/schemas/index.js";
import { KnowledgeBaseFile, type KnowledgeDocumentEntry } from "./knowledge-document.js";
import { domainFiles, goldenFile, parseDomainPath, taskFile } from "./release-layout.js";
import type { FileFailure, ReleaseFiles } from "./verify-integrity.js";
import { expandTrace } from "./trace-documents.js";

/** The artifacts of one domain of a release, parsed and schema-checked (the database stays bytes). */
export interface ReleaseDomain {
  id: string;
  card: DomainCard | null;
  world: WorldModel | null;
  /** `initial-state.sqlite` as stored: the base state before task overlays. */
  state: Buffer | null;
  documents: KnowledgeDocumentEntry[];
  /** Tasks in id order. */
  tasks: Task[];
  golden: Map<string, Trace>;
  /** Violation traces by task, in file order, with the file each came from. */
  violations: Map<string, Array<{ file: string; trace: Trace }>>;
  validation: ValidationReport | null;
}

/** A domain's own files, without its tasks and validation report (what the derived-file checks read). */
export type DomainOwnFiles = Pick<ReleaseDomain, "id" | "card" | "world" | "state" | "documents">;

/** A release read into memory: its manifest and the bytes of every listed file. */
export interface ReleaseContents {
  manifest: ReleaseManifest;
  contents: ReleaseFiles;
}

export function parseFile<T extends z.ZodType>(contents: ReleaseFiles, file: string, schema: T, problems: FileFailure[], required: boolean): z.infer<T> | null {
  const bytes = contents.get(file);
  if (!bytes) {
    if (required) problems.push({ file, reason: "required file is missing from the release" });
    return null;
  }
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
  return r.value;
}

/** Domain ids of a release: the `domains/<d>/` folders its manifest lists, in order. */
export function releaseDomainIds(manifest: ReleaseManifest): string[] {
  const ids = new Set<string>();
  for (const path of Object.keys(manifest.files)) {
    const m = /^domains\/([^/]+)\//.exec(path);
    if (m) ids.add(m[1] as string);
  }
  return [...ids].sort();
}

/** The per-task files a release holds for one domain, by task id (from the verified file list, nothing read). */
export interface DomainListing {
  /** Task ids with a task file, sorted. */
  tasks: string[];
  /** Task ids with a golden trace. */
  golden: Set<string>;
  /** Violation files by task id, in file order. */
  violations: Map<string, string[]>;
}

/** What one task of a release holds: its task, golden trace and violation traces, each parsed and checked against where it is filed. */
export interface ReleaseTaskFiles {
  task: Task | null;
  golden: Trace | null;
  violations: Array<{ file: string; trace: Trace }>;
}

/** List one domain's per-task files. */
export function listDomainTasks(release: ReleaseContents, id: string): DomainListing {
  const out: DomainListing = { tasks: [], golden: new Set(), violations: new Map() };
  for (const file of release.contents.keys()) {
    const p = parseDomainPath(file);
    if (!p || p.domain !== id) continue;
    if (p.kind === "task") out.tasks.push(p.task);
    else if (p.kind === "golden") out.golden.add(p.task);
    else out.violations.set(p.task, [...(out.violations.get(p.task) ?? []), file]);
  }
  out.tasks.sort();
  return out;
}

/**
 * A domain's own files (card, world, state, documents) and its validation report as `readValidation`
 * reads it; every problem names its file, in file order (the report's after the documents').
 */
export function parseOwnFiles<V>(release: ReleaseContents, id: string, problems: FileFailure[], readValidation: (file: string) => V): DomainOwnFiles & { validation: V } {
  const { contents } = release;
  const paths = domainFiles(id);
  const domain = {
    id,
    card: parseFile(contents, paths.card, DomainCard, problems, true),
    world: parseFile(contents, paths.world, WorldModel, problems, true),
    state: contents.get(paths.state) ?? null,
    documents: parseFile(contents, paths.documents, KnowledgeBaseFile, problems, true) ?? [],
    validation: readValidation(paths.validation),
  };
  if (!domain.state) problems.push({ file: paths.state, reason: "required file is missing from the release" });
  return domain;
}

/** Parse a domain's own files (card, world, state, documents, validation report), without its tasks; every problem names its file. */
export function parseDomainFiles(release: ReleaseContents, id: string, problems: FileFailure[]): ReleaseDomain {
  const own = parseOwnFiles(release, id, problems, (file) => parseFile(release.contents, file, ValidationReport, problems, true));
  return { id: own.id, card: own.card, world: own.world, state: own.state, documents: own.documents, tasks: [], golden: new Map(), violations: new Map(), validation: own.validation };
}

/** Parse one task's files (task, golden trace, violation traces) as `listing` names them; every problem names its file. */
export function readReleaseTask(release: ReleaseContents, id: string, task: string, listing: DomainListing, documents: readonly KnowledgeDocumentEntry[], problems: FileFailure[]): ReleaseTaskFiles {
  const out: ReleaseTaskFiles = { task: null, golden: null, violations: [] };
  if (listing.golden.has(task)) out.golden = goldenTrace(release.contents, goldenFile(id, task), task, documents, problems);
  if (listing.tasks.includes(task)) out.task = taskOf(release.contents, taskFile(id, task), id, task, problems);
  for (const file of listing.violations.get(task) ?? []) {
    const trace = violationTrace(release.contents, file, task, documents, problems);
    if (trace) out.violations.push({ file, trace });
  }
  return out;
}

function taskOf(contents: ReleaseFiles, file: string, id: string, name: string, problems: FileFailure[]): Task | null {
  const task = parseFile(contents, file, Task, problems, true);
  if (!task) return null;
  if (task.id !== name || task.domain !== id) {
    problems.push({ file, reason: `task ${task.domain}/${task.id} is filed as ${id}/${name}` });
    return null;
  }
  return task;
}

/** A trace file of the release, its document references put back (trace-documents.ts); null with a problem when it cannot be. */
function traceFile(contents: ReleaseFiles, file: string, documents: readonly KnowledgeDocumentEntry[], problems: FileFailure[]): Trace | null {
  const stored = parseFile(contents, file, Trace, problems, true);
  if (!stored) return null;
  const trace = expandTrace(stored, documents);
  if (typeof trace === "string") {
    problems.push({ file, reason: trace });
    return null;
  }
  return trace;
}

/** The golden trace of `task` filed at `file`, document references put back; null with a problem when it cannot be read or is not that task's golden trace. */
export function goldenTrace(contents: ReleaseFiles, file: string, task: string, documents: readonly KnowledgeDocumentEntry[], problems: FileFailure[]): Trace | null {
  const trace = traceFile(contents, file, documents, problems);
  if (!trace) return null;
  if (trace.task !== task || trace.role !== "golden") {
    problems.push({ file, reason: `holds a ${trace.role} trace of task ${trace.task}, not the golden trace of ${task}` });
    return null;
  }
  return trace;
}

function violationTrace(contents: ReleaseFiles, file: string, task: string, documents: readonly KnowledgeDocumentEntry[], problems: FileFailure[]): Trace | null {
  const trace = traceFile(contents, file, documents, problems);
  if (!trace) return null;
  if (trace.task !== task || trace.role !== "violation") {
    problems.push({ file, reason: `holds a ${trace.role} trace of task ${trace.task}, not a violation trace of ${task}` });
    return null;
  }
  return trace;
}

/** Parse one domain of a release with every task in memory (the diff, the review pages); every problem names its file. The audit reads task by task instead. */
export function parseReleaseDomain(release: ReleaseContents, id: string, problems: FileFailure[]): ReleaseDomain {
  const { contents } = release;
  const domain = parseDomainFiles(release, id, problems);
  for (const file of [...contents.keys()].sort()) {
    const p = parseDomainPath(file);
    if (!p || p.domain !== id) continue;
    if (p.kind === "task") {
      const task = taskOf(contents, file, id, p.task, problems);
      if (task) domain.tasks.push(task);
    } else if (p.kind === "golden") {
      const trace = goldenTrace(contents, file, p.task, domain.documents, problems);
      if (trace) domain.golden.set(p.task, trace);
    } else {
      const trace = violationTrace(contents, file, p.task, domain.documents, problems);
      if (trace) domain.violations.set(p.task, [...(domain.violations.get(p.task) ?? []), { file, trace }]);
    }
  }
  return domain;
}
