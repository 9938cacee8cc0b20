import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { stableJson } from "../core/canonical-json.js";
import { ValidationReport, type Task, type Trace } from "../schemas/index.js";
import { writeIfChanged } from "../build/artifact-files.js";
import { summarize } from "../../validation/validate-domain.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate, TaskRecord } from "../graph/state.js";

/**
 * collect: write what a release needs into `generated/<domain>/` (tasks, golden traces, the
 * validation report, the build report). Files of tasks that no longer exist are removed; unchanged
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
  for (const folder of ["tasks", "golden"]) {
    const dir = join(out, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) if (!keep.has(`${folder}/${f}`)) rmSync(join(dir, f));
  }
  const report = validationReport(state.domain, state.records);
  if (writeIfChanged(join(out, "validation.json"), stableJson(ValidationReport.parse(report)))) written.push("validation.json");
  const buildReport = { domain: state.domain, sources_hash: state.sourcesHash, sop_hash: state.sopHash, world_hash: state.worldHash, strategies: svc.strategies, stages: [...state.stages].sort((a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage)), released: released.map((r) => r.id) };
  if (writeIfChanged(join(out, "report.json"), stableJson(buildReport))) written.push("report.json");
  svc.progress.emit({ event: "done", domain: state.domain, detail: `${released.length} task(s) released, ${state.records.filter((r) => r.status === "dropped").length} dropped; ${written.length} file(s) changed in ${out}` });
  return { written };
}

const STAGE_ORDER = ["ingest", "extract_sop", "build_environment", "design_tasks", "calibrate"];

function validationReport(domain: string, records: readonly TaskRecord[]): ValidationReport {
  const tasks = records
    .filter((r) => r.id)
    .map((r) =>
      r.validation
        ? { ...r.validation, repairs: r.repairs, status: r.status === "verified" ? ("released" as const) : ("dropped" as const), drop_reason: r.status === "verified" ? null : r.reason }
        : { task: r.id as string, status: "dropped" as const, gates: [], mutants: [], kill_rate: null, repairs: r.repairs, probes: {}, difficulty: null, drop_reason: r.reason },
    );
  return summarize(domain, tasks);
}
