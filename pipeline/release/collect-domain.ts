import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256, stableJson } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { BuildRecord, DomainCard, EnvConfigFile, EnvConfigShared, Sop, Task, Trace, ValidationReport, WorldModel } from "../schemas/index.js";
import { KnowledgeBaseFile, type KnowledgeDocumentEntry } from "../../validation/audit/knowledge-document.js";
import { compactTrace } from "../../validation/audit/trace-documents.js";
import { horizon } from "./quality-figures.js";
import { domainFile, domainFiles, ENV_CONFIGS_DIR, ENV_SHARED_DIR, envConfigFile, envSharedFile, goldenFile, taskFile, violationFile, violationLabel, violationOrdinal } from "../../validation/audit/release-layout.js";
import { sqliteProblem } from "../../validation/audit/sqlite-file.js";
import { BUILD_RECORD_FILE } from "../build/build-record-file.js";
import { readJsonArtifact, readYamlArtifact } from "./read-artifact.js";
import { checkBuildRecord } from "./check-build-record.js";
import { hasVersionTrap, isTimed } from "./exercise-figures.js";

/**
 * One file of a release before it is written: its release-relative path, the sha256 of its exact
 * bytes, and the bytes. A domain's own files are kept in memory; a task's files (task, golden and
 * violation traces, most of a large release) are made again from generated/ when written, and must
 * hash as planned, so an export holds one task's files at a time whatever the number of tasks.
 */
export interface PlannedFile {
  path: string;
  sha256: string;
  bytes(): Buffer;
}

/** A planned file from bytes in memory. */
export function memoryFile(path: string, bytes: Buffer): PlannedFile {
  return { path, sha256: sha256(bytes), bytes: () => bytes };
}

/** A planned file whose bytes are `first` now (for its hash, and `inspect`) and `make()` again when written. */
function remadeFile(path: string, first: Buffer, make: () => Buffer, inspect: FileInspector): PlannedFile {
  inspect(path, first);
  const hash = sha256(first);
  return {
    path,
    sha256: hash,
    bytes: () => {
      const again = make();
      if (sha256(again) !== hash) throw new FoundryError("RELEASE_INPUT_CHANGED", "changed while the release was exported", { path });
      return again;
    },
  };
}

/** Called once with each planned file's bytes as they are first made (e.g. to refuse absolute paths). */
export type FileInspector = (path: string, bytes: Buffer) => void;

/** What the manifest counts and the datasheet need of one released task (the task itself is not kept). */
export interface TaskFacts {
  id: string;
  checks: number;
  difficulty: string | null;
  versionTrap: boolean;
  timed: boolean;
  invariant: boolean;
  /** The task has an approval check (the customer approves exact terms). */
  approval: boolean;
  /** The customer corrects approved terms right after approving (a renewed approval). */
  renewal: boolean;
}

/** What one domain contributes, for the manifest counts and the datasheet. */
export interface DomainSummary {
  id: string;
  card: DomainCard;
  documents: number;
  /** Released tasks, in id order. */
  tasks: TaskFacts[];
  report: ValidationReport;
  /** How the domain's generated files were made: the release's provenance. */
  record: BuildRecord;
  /** Violation traces stored in the release. */
  violations: number;
  /** Agent events of each released task's golden trace, in task order (the horizon). */
  horizons: number[];
  /** Structure of the domain, for the datasheet. */
  structure: { distractors: number; operations: number; customer_actions: number; workflows: number; events: number; rules: number };
}

const FILE_LABEL = /^[a-z0-9][a-z0-9_.-]*$/;

function json(path: string, value: unknown, inspect: FileInspector): PlannedFile {
  const bytes = Buffer.from(stableJson(value), "utf8");
  inspect(path, bytes);
  return memoryFile(path, bytes);
}

/** A task's JSON artifact as the release holds it: read, schema-checked and rewritten as stable JSON. */
function artifactFile<T>(path: string, read: () => T, inspect: FileInspector, first: T = read()): PlannedFile {
  const bytes = (value: T) => Buffer.from(stableJson(value), "utf8");
  return remadeFile(path, bytes(first), () => bytes(read()), inspect);
}

/** The shared part of environment configurations filed under `hash`: schema-checked, and its stable JSON must have that sha256. */
function readSharedPart(file: string, hash: string): EnvConfigShared {
  const shared = readJsonArtifact(file, EnvConfigShared, "shared part of environment configurations");
  const actual = sha256(stableJson(shared));
  if (actual !== hash) throw new FoundryError("RELEASE_INPUT_INVALID", `the shared part of environment configurations filed as ${hash} has sha256 ${actual}; rebuild with synth build`, { file });
  return shared;
}

function sortedNames(dir: string, ext: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(ext) && statSync(join(dir, n)).isFile()).sort() : [];
}

/**
 * Violation traces the graph left for one released task: `generated/<d>/violations/<task>/<label>.json`,
 * where the label is the trace's operator, or `<operator>-<n>` for its n-th mutant (see violationLabel).
 */
function graphViolations(gen: string, domain: string, task: string, documents: readonly KnowledgeDocumentEntry[], inspect: FileInspector): PlannedFile[] {
  const dir = join(gen, "violations", task);
  return sortedNames(dir, ".json").map((name) => {
    const file = join(dir, name);
    const label = name.slice(0, -".json".length);
    if (!FILE_LABEL.test(label)) throw new FoundryError("RELEASE_INPUT_INVALID", "violation trace file name must be lowercase letters, digits, '.', '-' or '_'", { file }, name);
    const read = () => {
      const trace = readJsonArtifact(file, Trace, "violation trace");
      if (trace.role !== "violation" || trace.task !== task || violationOrdinal(label, trace.label) === null) {
        throw new FoundryError("RELEASE_INPUT_INVALID", `expected a violation trace of task ${task} for the file label ${label}, found a ${trace.role} trace of ${trace.task} labelled ${JSON.stringify(trace.label)}`, { file });
      }
      return compactTrace(trace, documents);
    };
    return artifactFile(violationFile(domain, task, label), read, inspect);
  });
}

/** The violation labels a task's validation entry implies, in its order (see violationLabel). */
function expectedLabels(operators: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return operators.map((op) => {
    const n = (seen.get(op) ?? 0) + 1;
    seen.set(op, n);
    return violationLabel(op, n);
  });
}

/**
 * Read one generated domain (and its card and documents from the sources) into the files it adds
 * to a release, after checking it against its build record (sources, world, code and every
 * generated file as the build left them; see check-build-record.ts). Only tasks the validation
 * report releases are taken; every JSON artifact is schema-checked and rewritten as stable JSON
 * (sorted keys), documents and the database are copied byte for byte. Violation traces are the ones
 * the build's verify stage judged; a release never makes them again with today's code.
 */
export function collectDomain(id: string, generatedDir: string, sourcesDir: string, inspect: FileInspector = () => {}): { files: PlannedFile[]; summary: DomainSummary } {
  const gen = join(generatedDir, id);
  const src = join(sourcesDir, id);
  if (!existsSync(gen)) throw new FoundryError("RELEASE_DOMAIN_NOT_FOUND", `domain ${id} has not been generated (run the build first)`, { file: gen });
  const paths = domainFiles(id);
  const sourceCard = readYamlArtifact(join(src, "domain.yaml"), DomainCard, "domain card");
  if (sourceCard.id !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `the domain card says id ${sourceCard.id}`, { file: join(src, "domain.yaml"), path: "id" }, sourceCard.id);
  const record = readJsonArtifact(join(gen, BUILD_RECORD_FILE), BuildRecord, "build record");
  checkBuildRecord(record, id, gen, src);
  // Everything below reads files the check just matched against the record.
  // The card ships with the seed the domain was built with, so the release states what made it.
  const card: DomainCard = { ...sourceCard, generation: { ...sourceCard.generation, seed: record.seed } };
  const report = readJsonArtifact(join(gen, "validation.json"), ValidationReport, "validation report");
  if (report.domain !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `the validation report is for domain ${report.domain}`, { file: join(gen, "validation.json"), path: "domain" }, report.domain);
  const world = readJsonArtifact(join(gen, "world.json"), WorldModel, "world model");
  const documents = readJsonArtifact(join(gen, "documents.json"), KnowledgeBaseFile, "knowledge base");
  const stateFile = join(gen, "initial-state.sqlite");
  if (!existsSync(stateFile)) throw new FoundryError("RELEASE_INPUT_MISSING", "initial state database is missing", { file: stateFile });
  const state = readFileSync(stateFile);
  const worldSource = join(src, "world.yaml");
  if (!existsSync(worldSource)) throw new FoundryError("RELEASE_INPUT_MISSING", "the world model's source (world.yaml) is missing; a release ships it so the audit can check world.json against it", { file: worldSource });
  const bad = sqliteProblem(state);
  if (bad) throw new FoundryError("RELEASE_INPUT_INVALID", bad, { file: stateFile });

  const files: PlannedFile[] = [
    json(paths.card, card, inspect),
    json(paths.world, world, inspect),
    memoryFile(paths.worldSource, readFileSync(worldSource)),
    memoryFile(paths.state, state),
    json(paths.documents, documents, inspect),
    json(paths.validation, report, inspect),
  ];
  const sopFile = join(gen, "sop.json");
  const sop = existsSync(sopFile) ? readJsonArtifact(sopFile, Sop, "SOP") : null;
  if (sop) files.push(json(paths.sop, sop, inspect));
  const docs = sortedNames(join(src, "docs"), ".md");
  if (docs.length === 0) throw new FoundryError("RELEASE_INPUT_MISSING", "no documents (docs/*.md) to ship", { file: join(src, "docs") });
  for (const name of docs) {
    const bytes = readFileSync(join(src, "docs", name));
    inspect(domainFile(id, `docs/${name}`), bytes);
    files.push(memoryFile(domainFile(id, `docs/${name}`), bytes));
  }

  const entries = new Map(report.tasks.map((t) => [t.task, t]));
  const released = report.tasks.filter((t) => t.status === "released").map((t) => t.task).sort();
  const tasks: TaskFacts[] = [];
  let violations = 0;
  const horizons: number[] = [];
  const sharedParts = new Set<string>();
  for (const taskId of released) {
    const tf = join(gen, "tasks", `${taskId}.json`);
    const readTask = () => {
      const task = readJsonArtifact(tf, Task, "task");
      if (task.id !== taskId || task.domain !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `expected task ${id}/${taskId}, found ${task.domain}/${task.id}`, { file: tf });
      return task;
    };
    const gf = join(gen, "golden", `${taskId}.json`);
    const readGolden = () => {
      const golden = readJsonArtifact(gf, Trace, "golden trace");
      if (golden.role !== "golden" || golden.task !== taskId) throw new FoundryError("RELEASE_INPUT_INVALID", `expected the golden trace of ${taskId}, found a ${golden.role} trace of ${golden.task}`, { file: gf });
      return golden;
    };
    const cf = join(gen, ENV_CONFIGS_DIR, `${taskId}.json`);
    if (!existsSync(cf)) throw new FoundryError("RELEASE_INPUT_MISSING", `the environment configuration of released task ${taskId} is missing; rebuild with synth build`, { file: cf });
    const readConfig = () => {
      const config = readJsonArtifact(cf, EnvConfigFile, "environment configuration");
      if (config.task !== taskId || config.domain !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `expected the environment configuration of ${id}/${taskId}, found ${config.domain}/${config.task}`, { file: cf });
      return config;
    };
    const config = readConfig();
    if (!sharedParts.has(config.shared)) {
      sharedParts.add(config.shared);
      files.push(artifactFile(envSharedFile(id, config.shared), () => readSharedPart(join(gen, ENV_SHARED_DIR, `${config.shared}.json`), config.shared), inspect));
    }
    const task = readTask();
    tasks.push(taskFacts(task, entries.get(taskId)?.difficulty ?? null));
    const golden = readGolden();
    horizons.push(horizon(golden));
    // Traces are stored with their read_document answers by reference (validation/audit/trace-documents.ts).
    files.push(artifactFile(taskFile(id, taskId), readTask, inspect, task), artifactFile(goldenFile(id, taskId), () => compactTrace(readGolden(), documents), inspect, compactTrace(golden, documents)), artifactFile(envConfigFile(id, taskId), readConfig, inspect, config));
    const v = graphViolations(gen, id, taskId, documents, inspect);
    const want = expectedLabels((entries.get(taskId)?.mutants ?? []).map((m) => m.operator)).sort();
    const have = v.map((f) => f.path.slice(f.path.lastIndexOf("/") + 1, -".json".length)).sort();
    if (want.join(",") !== have.join(",")) {
      throw new FoundryError("RELEASE_VIOLATIONS_MISSING", `the validation report lists violation traces [${want.join(", ")}] for task ${taskId}; the build stored [${have.join(", ")}]. Rebuild with synth build`, { file: join(gen, "violations", taskId) });
    }
    violations += v.length;
    files.push(...v);
  }
  const structure = {
    distractors: sop ? sop.documents.filter((d) => d.status !== "current").length : 0,
    operations: world.operations.filter((o) => o.side === "agent").length,
    customer_actions: world.operations.filter((o) => o.side === "customer").length,
    workflows: sop ? sop.workflows.length : 0,
    events: world.events.length,
    rules: world.rules.length,
  };
  return { files, summary: { id, card, documents: documents.length, tasks, report, record, violations, horizons, structure } };
}

/** The facts of a task the counts and the datasheet use (see TaskFacts). */
export function taskFacts(task: Task, reportedDifficulty: string | null): TaskFacts {
  return {
    id: task.id,
    checks: task.checks.goal.length + task.checks.process.length + task.checks.protection.length,
    difficulty: task.difficulty ?? reportedDifficulty,
    versionTrap: hasVersionTrap(task),
    timed: isTimed(task),
    invariant: task.checks.process.some((c) => c.kind === "invariant_holds"),
    approval: task.checks.process.some((c) => c.kind === "approval_before_execution"),
    renewal: task.scenario.renewals.length > 0,
  };
}
