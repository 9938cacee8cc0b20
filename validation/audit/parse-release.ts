import type { z } from "zod";
import { validateAgainst } from "../../pipeline/core/schema-issues.js";
import { DomainCard, Task, Trace, ValidationReport, WorldModel, type ReleaseManifest } from "../../pipeline/schemas/index.js";
import { KnowledgeBaseFile, type KnowledgeDocumentEntry } from "./knowledge-document.js";
import { domainFiles, parseDomainPath } from "./release-layout.js";
import type { FileFailure } from "./verify-integrity.js";

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

/** A release read into memory: its manifest and the bytes of every listed file. */
export interface ReleaseContents {
  manifest: ReleaseManifest;
  contents: ReadonlyMap<string, Buffer>;
}

function parseFile<T extends z.ZodType>(contents: ReadonlyMap<string, Buffer>, file: string, schema: T, problems: FileFailure[], required: boolean): z.infer<T> | null {
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

/** Parse one domain of a release; every problem names its file. */
export function parseReleaseDomain(release: ReleaseContents, id: string, problems: FileFailure[]): ReleaseDomain {
  const { contents } = release;
  const paths = domainFiles(id);
  const domain: ReleaseDomain = {
    id,
    card: parseFile(contents, paths.card, DomainCard, problems, true),
    world: parseFile(contents, paths.world, WorldModel, problems, true),
    state: contents.get(paths.state) ?? null,
    documents: parseFile(contents, paths.documents, KnowledgeBaseFile, problems, true) ?? [],
    tasks: [],
    golden: new Map(),
    violations: new Map(),
    validation: parseFile(contents, paths.validation, ValidationReport, problems, true),
  };
  if (!domain.state) problems.push({ file: paths.state, reason: "required file is missing from the release" });
  for (const file of [...contents.keys()].sort()) {
    const p = parseDomainPath(file);
    if (!p || p.domain !== id) continue;
    if (p.kind === "task") {
      const task = parseFile(contents, file, Task, problems, true);
      if (!task) continue;
      if (task.id !== p.task || task.domain !== id) problems.push({ file, reason: `task ${task.domain}/${task.id} is filed as ${id}/${p.task}` });
      else domain.tasks.push(task);
    } else if (p.kind === "golden") {
      const trace = parseFile(contents, file, Trace, problems, true);
      if (!trace) continue;
      if (trace.task !== p.task || trace.role !== "golden") problems.push({ file, reason: `holds a ${trace.role} trace of task ${trace.task}, not the golden trace of ${p.task}` });
      else domain.golden.set(p.task, trace);
    } else {
      const trace = parseFile(contents, file, Trace, problems, true);
      if (!trace) continue;
      if (trace.task !== p.task || trace.role !== "violation") problems.push({ file, reason: `holds a ${trace.role} trace of task ${trace.task}, not a violation trace of ${p.task}` });
      else domain.violations.set(p.task, [...(domain.violations.get(p.task) ?? []), { file, trace }]);
    }
  }
  return domain;
}
