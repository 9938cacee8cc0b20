import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256, stableJson } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { BuildRecord, DomainCard, EnvConfigFile, EnvConfigShared, SimulatedDomainCard, SimulatedReport, SimulatedTask, SimulatedVerdict, Trace } from "../schemas/index.js";
import { KnowledgeBaseFile } from "../../validation/audit/knowledge-document.js";
import { domainFile, domainFiles, ENV_CONFIGS_DIR, ENV_SHARED_DIR, envConfigFile, envSharedFile, taskFile, TRAJECTORIES_DIR, trajectoryFile, VERDICTS_DIR, verdictFile } from "../../validation/audit/release-layout.js";
import { BUILD_RECORD_FILE } from "../build/build-record-file.js";
import { readJsonArtifact, readYamlArtifact } from "./read-artifact.js";
import { checkBuildRecord } from "./check-build-record.js";
import { memoryFile, type FileInspector, type PlannedFile } from "./collect-domain.js";
import { DomainCardSource } from "../schemas/simulated.js";

/** What a simulated-only domain contributes to the manifest and the datasheet (reported apart from executable domains). */
export interface SimulatedSummary {
  id: string;
  card: SimulatedDomainCard;
  documents: number;
  /** Released tasks in id order, with their difficulty label. */
  tasks: Array<{ id: string; difficulty: string | null; criteria: number }>;
  report: SimulatedReport;
  record: BuildRecord;
}

function json(path: string, value: unknown, inspect: FileInspector): PlannedFile {
  const bytes = Buffer.from(stableJson(value), "utf8");
  inspect(path, bytes);
  return memoryFile(path, bytes);
}

/**
 * Read one simulated-only domain (`environment: simulated`, built by the graph's simulated branch)
 * into the files it adds to a release, after checking it against its build record: the card (marked
 * simulated), the documents, the build report, and per released task the task (simulated_only), its
 * environment configuration in two parts, the solver's trajectory (bytes as built: the verdict's
 * sha256 names them) and the rubric verifier's verdict with every judgment. No world, checks or
 * golden traces: such tasks are scored by the rubric verifier only.
 */
export function collectSimulatedDomain(id: string, generatedDir: string, sourcesDir: string, inspect: FileInspector = () => {}): { files: PlannedFile[]; summary: SimulatedSummary } {
  const gen = join(generatedDir, id);
  const src = join(sourcesDir, id);
  if (!existsSync(gen)) throw new FoundryError("RELEASE_DOMAIN_NOT_FOUND", `domain ${id} has not been generated (run the build first)`, { file: gen });
  const { environment: _e, ...sourceCard } = readYamlArtifact(join(src, "domain.yaml"), DomainCardSource, "domain card");
  if (sourceCard.id !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `the domain card says id ${sourceCard.id}`, { file: join(src, "domain.yaml"), path: "id" }, sourceCard.id);
  const record = readJsonArtifact(join(gen, BUILD_RECORD_FILE), BuildRecord, "build record");
  checkBuildRecord(record, id, gen, src);
  const card = SimulatedDomainCard.parse({ ...DomainCard.parse(sourceCard), generation: { ...sourceCard.generation, seed: record.seed }, environment: "simulated" });
  const report = readJsonArtifact(join(gen, "validation.json"), SimulatedReport, "simulated-only build report");
  if (report.domain !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `the build report is for domain ${report.domain}`, { file: join(gen, "validation.json"), path: "domain" }, report.domain);
  const documents = readJsonArtifact(join(gen, "documents.json"), KnowledgeBaseFile, "knowledge base");
  const paths = domainFiles(id);
  const files: PlannedFile[] = [json(paths.card, card, inspect), json(paths.documents, documents, inspect), json(paths.validation, report, inspect)];
  const docsDir = join(src, "docs");
  const docs = existsSync(docsDir) ? readdirSync(docsDir).filter((n) => n.endsWith(".md") && statSync(join(docsDir, n)).isFile()).sort() : [];
  if (docs.length === 0) throw new FoundryError("RELEASE_INPUT_MISSING", "no documents (docs/*.md) to ship", { file: docsDir });
  for (const name of docs) {
    const bytes = readFileSync(join(docsDir, name));
    inspect(domainFile(id, `docs/${name}`), bytes);
    files.push(memoryFile(domainFile(id, `docs/${name}`), bytes));
  }
  const tasks: SimulatedSummary["tasks"] = [];
  const shared = new Set<string>();
  for (const taskId of report.tasks.filter((t) => t.status === "released").map((t) => t.task).sort()) {
    const tf = join(gen, "tasks", `${taskId}.json`);
    const task = readJsonArtifact(tf, SimulatedTask, "simulated-only task");
    if (task.id !== taskId || task.domain !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `expected task ${id}/${taskId}, found ${task.domain}/${task.id}`, { file: tf });
    const cf = join(gen, ENV_CONFIGS_DIR, `${taskId}.json`);
    if (!existsSync(cf)) throw new FoundryError("RELEASE_INPUT_MISSING", `the environment configuration of released task ${taskId} is missing; rebuild with synth build`, { file: cf });
    const config = readJsonArtifact(cf, EnvConfigFile, "environment configuration");
    if (!shared.has(config.shared)) {
      shared.add(config.shared);
      const sf = join(gen, ENV_SHARED_DIR, `${config.shared}.json`);
      const part = readJsonArtifact(sf, EnvConfigShared, "shared part of environment configurations");
      if (sha256(stableJson(part)) !== config.shared) throw new FoundryError("RELEASE_INPUT_INVALID", `the shared part filed as ${config.shared} does not have that sha256; rebuild with synth build`, { file: sf });
      files.push(json(envSharedFile(id, config.shared), part, inspect));
    }
    // The trajectory ships as built: the verdict names its bytes' sha256.
    const trajectoryBytes = readFileSync(join(gen, TRAJECTORIES_DIR, `${taskId}.json`));
    Trace.parse(JSON.parse(trajectoryBytes.toString("utf8")));
    inspect(trajectoryFile(id, taskId), trajectoryBytes);
    const verdict = readJsonArtifact(join(gen, VERDICTS_DIR, `${taskId}.json`), SimulatedVerdict, "rubric verdict");
    files.push(json(taskFile(id, taskId), task, inspect), json(envConfigFile(id, taskId), config, inspect), memoryFile(trajectoryFile(id, taskId), trajectoryBytes), json(verdictFile(id, taskId), verdict, inspect));
    tasks.push({ id: taskId, difficulty: task.difficulty, criteria: task.rubric.length });
  }
  return { files, summary: { id, card, documents: documents.length, tasks, report, record } };
}
