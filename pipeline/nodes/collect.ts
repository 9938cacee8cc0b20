import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sha256, stableJson } from "../core/canonical-json.js";
import { PIPELINE_VERSION } from "../core/version.js";
import { ValidationReport, type Task, type TaskValidation, type Trace } from "../schemas/index.js";
import { writeIfChanged } from "../build/artifact-files.js";
import { readStagedViolations } from "../build/violation-files.js";
import { BUILD_RECORD_FILE, writeBuildRecord } from "../build/build-record-file.js";
import { violationLabel } from "../../validation/audit/release-layout.js";
import { taskTraps } from "../../validation/task-traps.js";
import { domainContext } from "./domain-context.js";
import { storeTasks } from "./reuse-tasks.js";
import { designStages } from "./design-stages.js";
import { branchCoverage } from "../../validation/branch-coverage.js";
import { invariantCoverage } from "../../validation/invariant-coverage.js";
import { services, type NodeConfig } from "../build/services.js";
import { writeEnvConfigs } from "./write-env-configs.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";

/** Report-order labels of a task's mutants: `<operator>`, then `<operator>-<n>` (violationLabel). */
function mutantLabels(operators: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return operators.map((op) => {
    const n = (seen.get(op) ?? 0) + 1;
    seen.set(op, n);
    return violationLabel(op, n);
  });
}

/**
 * collect: write what a release needs into `generated/<domain>/` (tasks, golden traces, the
 * violation traces the verify stage judged, each released task's environment configuration, the
 * validation report, the build report) and the
 * build record: how these files were made (strategies, models, seed, sources, world and code
 * hashes, the sha256 of every file). Files of tasks that no longer exist are removed; unchanged
 * files are not rewritten.
 */
export async function collect(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("collect");
  const out = join(state.paths.generated, state.domain);
  const released = state.records.filter((r) => r.status === "verified" && r.task && r.golden);
  const written: string[] = [];
  const keep = new Set<string>();
  for (const r of released) {
    const task = r.task as Task;
    for (const [folder, value] of [["tasks", task], ["golden", r.golden as Trace]] as const) {
      const rel = `${folder}/${task.id}.json`;
      keep.add(rel);
      if (writeIfChanged(join(out, rel), stableJson(value))) written.push(rel);
    }
  }
  const staged: Record<string, Record<string, string>> = {};
  for (const r of released) {
    const id = (r.task as Task).id;
    staged[id] = {};
    for (const v of readStagedViolations(state.paths.generated, state.domain, id, mutantLabels((r.validation?.mutants ?? []).map((m) => m.operator)))) {
      const rel = `violations/${id}/${v.label}.json`;
      keep.add(rel);
      staged[id][v.label] = sha256(v.text);
      if (writeIfChanged(join(out, rel), v.text)) written.push(rel);
    }
  }
  for (const folder of ["tasks", "golden"]) {
    const dir = join(out, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) if (!keep.has(`${folder}/${f}`)) rmSync(join(dir, f));
  }
  const vdir = join(out, "violations");
  if (existsSync(vdir)) {
    for (const t of readdirSync(vdir)) {
      for (const f of readdirSync(join(vdir, t))) if (!keep.has(`violations/${t}/${f}`)) rmSync(join(vdir, t, f));
      if (readdirSync(join(vdir, t)).length === 0) rmSync(join(vdir, t), { recursive: true });
    }
  }
  written.push(...(await writeEnvConfigs(out, domainContext(state, svc), released.map((r) => r.task as Task), svc)));
  // The domain summary ranks mutation operators by their registry, which loads the operators: only here.
  const { summarize } = await import("../../validation/validate-domain.js");
  const releasedTasks = released.map((r) => r.task as Task);
  const base = validationReport(state.domain, state.records, summarize);
  const report = { ...base, branches: branchCoverage(domainContext(state, svc).sop, releasedTasks), invariants: invariantCoverage(domainContext(state, svc).world, releasedTasks, base.tasks) };
  if (writeIfChanged(join(out, "validation.json"), stableJson(ValidationReport.parse(report)))) written.push("validation.json");
  const design = await designStages(state, svc);
  const stages = [...state.stages.filter((s) => !design.some((d) => d.stage === s.stage)), ...design];
  const buildReport = { domain: state.domain, sources_hash: state.sourcesHash, sop_hash: state.sopHash, world_hash: state.worldHash, strategies: svc.strategies, stages: [...stages].sort((a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage)), released: released.map((r) => r.id) };
  if (writeIfChanged(join(out, "report.json"), stableJson(buildReport))) written.push("report.json");
  const record = {
    domain: state.domain,
    pipeline_version: PIPELINE_VERSION,
    code_fingerprint: svc.codeFingerprint,
    seed: domainContext(state, svc).card.generation.seed,
    strategies: Object.fromEntries(Object.entries(svc.strategies).map(([role, s]) => [role, s === "deterministic" ? ("deterministic" as const) : ("llm" as const)])),
    models: svc.models,
    model_settings: svc.modelSettings,
    sources_hash: state.sourcesHash,
    sop_hash: state.sopHash,
    world_hash: state.worldHash,
  };
  if (writeBuildRecord(out, record)) written.push(BUILD_RECORD_FILE);
  storeTasks(state, svc, staged);
  svc.progress.emit({ event: "done", domain: state.domain, detail: `${released.length} task(s) released, ${state.records.filter((r) => r.status === "dropped").length} dropped; ${written.length} file(s) changed in ${out}` });
  return { written, stages: design };
}

const STAGE_ORDER = ["draft_world", "ingest", "extract_sop", "build_environment", "design_units", "design_tasks", "calibrate"];

function validationReport(domain: string, records: readonly TaskRecord[], summarize: (domain: string, tasks: TaskValidation[]) => ValidationReport): ValidationReport {
  const tasks = records
    .filter((r) => r.id)
    .map((r) =>
      r.validation
        ? { ...r.validation, repairs: r.repairs, status: r.status === "verified" ? ("released" as const) : ("dropped" as const), drop_reason: r.status === "verified" ? null : r.reason, ...(r.task ? { traps: taskTraps(r.task, r.validation.probes) } : {}) }
        : { task: r.id as string, status: "dropped" as const, gates: [], mutants: [], kill_rate: null, repairs: r.repairs, probes: {}, difficulty: null, drop_reason: r.reason },
    );
  return summarize(domain, tasks);
}
