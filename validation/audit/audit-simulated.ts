import { sha256 } from "../../pipeline/core/canonical-json.js";
import { SimulatedDomainCard, SimulatedReport, SimulatedTask, SimulatedVerdict, Trace } from "../../pipeline/schemas/index.js";
import { revoteProblems, rubricGroups } from "../rubric-revote.js";
import { domainClauses, simulatedTaskRefProblems } from "../simulated-task-refs.js";
import { KnowledgeBaseFile } from "./knowledge-document.js";
import { parseFile, type ReleaseContents } from "./parse-release.js";
import { checkDocuments } from "./derived-files.js";
import { domainFiles, envConfigFile, taskFile, trajectoryFile, verdictFile, TRAJECTORIES_DIR, VERDICTS_DIR } from "./release-layout.js";
import { SharedParts, strayEnvConfigs } from "./env-config-check.js";
import { EnvConfigFile } from "../../pipeline/schemas/env-config.js";
import type { FileFailure } from "./verify-integrity.js";

/** What the audit found of one simulated-only task. */
export interface SimulatedTaskAudit {
  domain: string;
  task: string;
  /** Rubric criteria whose stored judgments were re-voted. */
  criteria: number;
  ok: boolean;
}

/** Whether a release domain is simulated-only: its card says `environment: simulated`. */
export function isSimulatedDomain(release: ReleaseContents, id: string): boolean {
  const bytes = release.contents.get(domainFiles(id).card);
  if (!bytes) return false;
  try {
    return (JSON.parse(bytes.toString("utf8")) as { environment?: unknown }).environment === "simulated";
  } catch {
    return false;
  }
}

/** The stored verdict re-voted from its own judgments (validation/majority-vote.ts): each difference is a problem of the verdict's file. */
function revote(verdict: SimulatedVerdict, task: SimulatedTask, file: string, problems: FileFailure[]): void {
  const ids = task.rubric.map((c) => c.id);
  const stored = verdict.criteria.map((c) => c.id);
  if (ids.join(",") !== stored.join(",")) problems.push({ file, reason: `judges criteria [${stored.join(", ")}], the task's rubric has [${ids.join(", ")}]` });
  for (const reason of revoteProblems(verdict.criteria)) problems.push({ file, reason });
  for (const c of verdict.criteria) {
    const group = task.rubric.find((r) => r.id === c.id)?.group;
    if (group && group !== c.group) problems.push({ file, reason: `criterion ${c.id} is stored in group ${c.group}, the task's rubric puts it in ${group}` });
  }
  const groups = rubricGroups(verdict.criteria);
  for (const g of ["goal", "process", "protection"] as const) if (groups[g] !== verdict[g]) problems.push({ file, reason: `${g} is stored as ${String(verdict[g])}, its criteria say ${String(groups[g])}` });
  const passed = groups.goal && groups.process && groups.protection;
  if (passed !== verdict.passed) problems.push({ file, reason: `passed is stored as ${String(verdict.passed)}, its groups say ${String(passed)}` });
  if (!passed) problems.push({ file, reason: "the solver's trajectory of a released task does not pass its rubric" });
}

/**
 * Audit one simulated-only domain of a release, without replaying anything (it has no world): the
 * card, the knowledge base against docs/, the build report; for every task its schema, that the
 * report releases it, its environment configuration (two parts, filed under its sha256), that its
 * plan calls only the configuration's tools and every clause it cites is defined in a document of
 * the domain, that the solver trajectory's sha256 is the one its verdict names, and that the stored
 * judgments re-vote to the stored verdict. Every problem names its file.
 */
export function auditSimulatedDomain(release: ReleaseContents, id: string, problems: FileFailure[]): { counts: { id: string; tasks: number; documents: number; checks: number; industry: string | null }; audits: SimulatedTaskAudit[] } {
  const paths = domainFiles(id);
  const { contents } = release;
  const card = parseFile(contents, paths.card, SimulatedDomainCard, problems, true);
  const documents = parseFile(contents, paths.documents, KnowledgeBaseFile, problems, true) ?? [];
  checkDocuments({ id, card: null, world: null, state: null, documents }, contents, problems);
  const report = parseFile(contents, paths.validation, SimulatedReport, problems, true);
  const clauses = domainClauses(documents.map((d) => ({ text: String(d.text ?? "") })));
  const released = new Set(report?.tasks.filter((t) => t.status === "released").map((t) => t.task) ?? []);
  const shared = new SharedParts(contents, id);
  const held = new Set<string>();
  const audits: SimulatedTaskAudit[] = [];
  const prefix = `domains/${id}/`;
  const names = [...contents.keys()].filter((f) => f.startsWith(`${prefix}tasks/`) && f.endsWith(".json")).map((f) => f.slice(`${prefix}tasks/`.length, -".json".length)).sort();
  for (const name of names) {
    const before = problems.length;
    const task = parseFile(contents, taskFile(id, name), SimulatedTask, problems, true);
    if (!task) continue;
    held.add(task.id);
    if (task.id !== name || task.domain !== id) problems.push({ file: taskFile(id, name), reason: `is filed as ${id}/${name} but holds task ${task.domain}/${task.id}` });
    if (report && !released.has(task.id)) problems.push({ file: taskFile(id, name), reason: "the build report does not release this task" });
    const config = parseFile(contents, envConfigFile(id, name), EnvConfigFile, problems, true);
    const part = config ? shared.get(config.shared, problems) : null;
    if (part) for (const p of simulatedTaskRefProblems(task, new Set(part.tools.map((t) => t.name)), clauses)) problems.push({ file: taskFile(id, name), reason: `${p.path}: ${p.message}` });
    const trajectory = contents.get(trajectoryFile(id, name));
    if (!trajectory) problems.push({ file: trajectoryFile(id, name), reason: "required file is missing from the release" });
    else parseFile(contents, trajectoryFile(id, name), Trace, problems, true);
    const verdict = parseFile(contents, verdictFile(id, name), SimulatedVerdict, problems, true);
    if (verdict && trajectory) {
      if (verdict.trajectory_sha256 !== sha256(trajectory)) problems.push({ file: verdictFile(id, name), reason: `names trajectory sha256 ${verdict.trajectory_sha256}, but ${trajectoryFile(id, name)} has ${sha256(trajectory)}` });
      revote(verdict, task, verdictFile(id, name), problems);
    }
    audits.push({ domain: id, task: name, criteria: verdict?.criteria.length ?? 0, ok: problems.length === before });
  }
  for (const name of [...released].sort()) if (!held.has(name)) problems.push({ file: taskFile(id, name), reason: "the build report releases this task but the release does not hold it" });
  problems.push(...strayEnvConfigs(contents, id, held, shared));
  for (const dir of [TRAJECTORIES_DIR, VERDICTS_DIR]) {
    for (const f of contents.keys()) {
      const m = f.startsWith(`${prefix}${dir}/`) ? /([^/]+)\.json$/.exec(f) : null;
      if (m && !held.has(m[1] as string)) problems.push({ file: f, reason: `${dir === VERDICTS_DIR ? "a verdict" : "a trajectory"} of a task the release does not hold` });
    }
  }
  return { counts: { id, tasks: held.size, documents: documents.length, checks: 0, industry: card?.industry ?? null }, audits };
}
