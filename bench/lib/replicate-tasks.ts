import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stableJson } from "../../pipeline/core/canonical-json.js";
import { BuildRecord, ValidationReport, type TaskValidation } from "../../pipeline/schemas/index.js";
import { BUILD_RECORD_FILE, hashGeneratedFiles } from "../../pipeline/build/build-record-file.js";

/**
 * Grow a built domain to many released tasks without building them: building 10,000 real task
 * slots would take hours, so the scale benchmarks build a domain once and copy its released tasks
 * under new ids. Each copy is its source task with the task id rewritten everywhere it occurs in the
 * task's files (task, golden trace, violation traces, environment configuration, its validation
 * entry and the coverage lists);
 * the copies are as costly to export, audit and evaluate as their sources, but not new tasks. The
 * build record is rewritten for the files now present, so the release sees an up-to-date build.
 */

/** The id of copy `n` (1-based): `<domain>-c00001`, never a prefix of another id. */
const copyId = (domain: string, n: number) => `${domain}-c${String(n).padStart(5, "0")}`;

/** Every whole-word occurrence of `id` (a task id followed by an id character is another task). */
const idPattern = (id: string) => new RegExp(`${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![a-z0-9_-])`, "g");

function copyRenamed(from: string, to: string, source: string, target: string): void {
  writeFileSync(to, readFileSync(from, "utf8").replace(idPattern(source), target));
}

/** Copy a generated domain folder (`from`) to `to` and grow it to `total` released tasks; returns how many tasks were built (the sources of the copies). */
export function replicateDomain(from: string, to: string, total: number): { built: number; copies: number } {
  cpSync(from, to, { recursive: true });
  const reportFile = join(to, "validation.json");
  const report = ValidationReport.parse(JSON.parse(readFileSync(reportFile, "utf8")));
  const released = report.tasks.filter((t) => t.status === "released").sort((a, b) => (a.task < b.task ? -1 : 1));
  if (released.length === 0) throw new Error(`${from}: the build released no task, so there is nothing to replicate`);
  if (released.length > total) throw new Error(`${from}: the build released ${released.length} tasks, more than the ${total} asked for`);
  const copiesOf = new Map<string, string[]>(released.map((t) => [t.task, []]));
  const added: TaskValidation[] = [];
  for (let n = 1; n <= total - released.length; n++) {
    const source = released[(n - 1) % released.length] as TaskValidation;
    const id = copyId(report.domain, n);
    copiesOf.get(source.task)?.push(id);
    copyRenamed(join(to, "tasks", `${source.task}.json`), join(to, "tasks", `${id}.json`), source.task, id);
    copyRenamed(join(to, "golden", `${source.task}.json`), join(to, "golden", `${id}.json`), source.task, id);
    const config = join(to, "env-configs", `${source.task}.json`);
    if (existsSync(config)) copyRenamed(config, join(to, "env-configs", `${id}.json`), source.task, id);
    const violations = join(to, "violations", source.task);
    if (existsSync(violations)) {
      mkdirSync(join(to, "violations", id), { recursive: true });
      for (const f of readdirSync(violations)) copyRenamed(join(violations, f), join(to, "violations", id, f), source.task, id);
    }
    added.push(JSON.parse(JSON.stringify(source).replace(idPattern(source.task), id)) as TaskValidation);
  }
  const withCopies = (ids: readonly string[]) => ids.flatMap((t) => [t, ...(copiesOf.get(t) ?? [])]);
  const s = report.summary;
  const copied = { mutants: added.reduce((n, t) => n + t.mutants.length, 0), killed: added.reduce((n, t) => n + t.mutants.filter((m) => m.killed).length, 0) };
  const next: ValidationReport = {
    ...report,
    tasks: [...report.tasks, ...added],
    summary: {
      ...s,
      generated: s.generated + added.length,
      released: s.released + added.length,
      mutants_total: s.mutants_total + copied.mutants,
      mutants_killed: s.mutants_killed + copied.killed,
      survivors: s.survivors.flatMap((v) => [v, ...(copiesOf.get(v.task) ?? []).map((task) => ({ ...v, task }))]),
    },
    ...(report.branches ? { branches: report.branches.map((b) => ({ ...b, tasks: withCopies(b.tasks) })) } : {}),
    ...(report.invariants ? { invariants: report.invariants.map((i) => ({ ...i, checked: withCopies(i.checked), tested: withCopies(i.tested) })) } : {}),
  };
  writeFileSync(reportFile, stableJson(next));
  const recordFile = join(to, BUILD_RECORD_FILE);
  const record = BuildRecord.parse(JSON.parse(readFileSync(recordFile, "utf8")));
  writeFileSync(recordFile, stableJson({ ...record, files: hashGeneratedFiles(to) }));
  return { built: released.length, copies: added.length };
}
