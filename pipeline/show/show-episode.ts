import { existsSync, readFileSync, statSync } from "node:fs";
import { join, normalize } from "node:path";
import { sha256 } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { episodeId, readResults, RESULTS_FILE, TRACES_DIR } from "../evaluate/results-log.js";
import { readSettings } from "../evaluate/score/read-settings.js";
import { SETTINGS_FILE } from "../evaluate/settings.js";
import { parseTrace } from "../../validation/parse-trace.js";
import { openShowRelease, type OpenOptions } from "./open-release.js";
import { buildTaskView, findTask } from "./build-task-view.js";
import { nearIds } from "./near-ids.js";
import type { TaskView } from "./task-view.js";

/** Whether a folder is one `synth evaluate` wrote (settings and results present). */
export function isEvaluationDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, SETTINGS_FILE)) && existsSync(join(path, RESULTS_FILE));
}

/**
 * The review view of one evaluated episode (`domain/task/condition/run`): the release the folder
 * names (verified, and its root hash must be the one evaluated), the episode's stored trace (its
 * sha256 must be the one results.jsonl recorded), and every check re-run on that trace, so each
 * failed check's reason sits at the event that decided it.
 */
export function showEpisode(runDir: string, episode: string, releasesRoot?: string, opts: OpenOptions = {}): TaskView {
  const settings = readSettings(runDir);
  const results = readResults(runDir);
  const result = results.find((r) => episodeId(r) === episode);
  if (!result) {
    const ids = results.map((r) => episodeId(r));
    throw new FoundryError("EPISODE_NOT_FOUND", `no episode ${episode} in ${join(runDir, RESULTS_FILE)} (ids are domain/task/condition/run); nearest: ${nearIds(episode, ids).join(", ") || "none (no episode finished)"}`, { file: join(runDir, RESULTS_FILE) }, episode);
  }
  const release = openShowRelease(`${settings.release.name}@${settings.release.version}`, releasesRoot, opts);
  if (release.manifest.root_hash !== settings.release.root_hash) {
    throw new FoundryError("EPISODE_RELEASE_MISMATCH", `the release at ${release.dir} has root hash ${release.manifest.root_hash}, the evaluation ran on ${settings.release.root_hash}`, { file: join(runDir, SETTINGS_FILE), path: "release.root_hash" }, release.manifest.root_hash);
  }
  const rel = normalize(result.trace_file);
  if (!rel.startsWith(`${TRACES_DIR}/`)) throw new FoundryError("EPISODE_TRACE_PATH", `trace_file of ${episode} is not inside ${TRACES_DIR}/`, { file: join(runDir, RESULTS_FILE), path: "trace_file" }, result.trace_file);
  const file = join(runDir, rel);
  if (!existsSync(file)) throw new FoundryError("EPISODE_TRACE_MISSING", `the trace of episode ${episode} is missing`, { file });
  const bytes = readFileSync(file);
  const digest = sha256(bytes);
  if (digest !== result.trace_sha256) throw new FoundryError("EPISODE_TRACE_CHANGED", `the trace of episode ${episode} is not the one evaluated (sha256 ${digest}, results.jsonl says ${result.trace_sha256})`, { file }, digest);
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    throw new FoundryError("EPISODE_TRACE_INVALID", `not valid JSON: ${(e as Error).message}`, { file });
  }
  const trace = parseTrace(data, `trace of ${episode}`);
  const { domain, task } = findTask(release, result.task);
  return buildTaskView(release, domain, task, trace, { kind: "episode", run_dir: runDir, episode, file: rel, agent: result.agent, condition: result.condition, strict_success: result.strict_success });
}
