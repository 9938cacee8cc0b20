import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sha256, stableJson } from "../core/canonical-json.js";
import { PIPELINE_VERSION } from "../core/version.js";
import { SimulatedReport, SimulatedTask, SimulatedVerdict } from "../schemas/index.js";
import { writeIfChanged } from "../build/artifact-files.js";
import { BUILD_RECORD_FILE, writeBuildRecord } from "../build/build-record-file.js";
import { SIMULATED_ROLES } from "../build/strategies.js";
import { splitEnvConfig } from "../world/env-config/env-config-parts.js";
import { ENV_CONFIGS_DIR, ENV_SHARED_DIR, TRAJECTORIES_DIR, VERDICTS_DIR } from "../../validation/audit/release-layout.js";
import type { NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import { simulatedDomain, simulatedServices, taskConfig } from "./simulated-domain.js";

/** The folders of generated/<d>/ this node owns: files of tasks no longer released are removed. */
const FOLDERS = ["tasks", ENV_CONFIGS_DIR, ENV_SHARED_DIR, TRAJECTORIES_DIR, VERDICTS_DIR];

/**
 * simulated collect: write a simulated-only domain into `generated/<domain>/`: the knowledge base
 * (documents.json), each released task (marked simulated_only, labelled), its environment
 * configuration in two parts (env-configs/<task>.json and env-configs/shared/<sha256>.json, as
 * executable domains store them), the solver's trajectory and the rubric verifier's verdict on it
 * (every judgment kept), the build report (validation.json: every slot, kept or dropped with its
 * reason), report.json and the build record. Unchanged files are not rewritten.
 */
export async function simulatedCollect(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = simulatedServices(config, "simulated_collect");
  const domain = simulatedDomain(state);
  const out = join(state.paths.generated, state.domain);
  const written: string[] = [];
  const keep = new Set<string>();
  const put = (rel: string, text: string) => {
    keep.add(rel);
    if (writeIfChanged(join(out, rel), text)) written.push(rel);
  };
  const documents = stableJson(domain.documents);
  put("documents.json", documents);
  const released = state.simRecords.filter((r) => r.status === "released");
  let sharedHash = "";
  for (const r of released) {
    put(`tasks/${r.id}.json`, stableJson(SimulatedTask.parse(r.task)));
    const parts = splitEnvConfig(taskConfig(state, r.task));
    sharedHash = parts.sharedHash;
    put(`${ENV_CONFIGS_DIR}/${r.id}.json`, stableJson(parts.file));
    put(`${ENV_SHARED_DIR}/${parts.sharedHash}.json`, parts.sharedBytes);
    put(`${TRAJECTORIES_DIR}/${r.id}.json`, r.trajectory as string);
    put(`${VERDICTS_DIR}/${r.id}.json`, stableJson(SimulatedVerdict.parse(r.verdict)));
  }
  for (const folder of FOLDERS) {
    const dir = join(out, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir, { withFileTypes: true })) if (f.isFile() && !keep.has(`${folder}/${f.name}`)) rmSync(join(dir, f.name));
  }
  const dropped = state.simRecords.filter((r) => r.status === "dropped");
  const report = SimulatedReport.parse({
    domain: state.domain,
    environment: "simulated",
    slots: state.simRecords.length,
    released: released.length,
    dropped: dropped.map((r) => ({ slot: r.slot, task: r.id, reason: r.reason ?? "dropped" })),
    tasks: state.simRecords.map((r) => ({ task: r.id, status: r.status === "released" ? "released" : "dropped", repairs: r.repairs, solve_rate: r.solve_rate, difficulty: r.status === "released" ? r.task.difficulty : null, drop_reason: r.status === "released" ? null : (r.reason ?? "dropped") })),
  });
  put("validation.json", stableJson(report));
  const models = Object.fromEntries(SIMULATED_ROLES.map((role) => [role, svc.simulated?.[role]?.spec ?? "deterministic"]));
  if (writeIfChanged(join(out, "report.json"), stableJson({ domain: state.domain, environment: "simulated", sources_hash: state.sourcesHash, models, stages: state.stages, released: released.map((r) => r.id) }))) written.push("report.json");
  const record = {
    domain: state.domain,
    pipeline_version: PIPELINE_VERSION,
    code_fingerprint: svc.codeFingerprint,
    seed: domain.seed,
    strategies: Object.fromEntries(SIMULATED_ROLES.map((role) => [role, "llm" as const])),
    models: svc.models,
    model_settings: svc.modelSettings,
    sources_hash: state.sourcesHash,
    // No SOP and no world: the knowledge base and the configuration's shared part stand in their places.
    sop_hash: sha256(documents),
    world_hash: sharedHash === "" ? sha256(stableJson(state.simEnvironment)) : sharedHash,
  };
  if (writeBuildRecord(out, record)) written.push(BUILD_RECORD_FILE);
  svc.progress.emit({ event: "done", domain: state.domain, detail: `${released.length} simulated-only task(s) released, ${dropped.length} dropped; ${written.length} file(s) changed in ${out}` });
  return { written };
}
