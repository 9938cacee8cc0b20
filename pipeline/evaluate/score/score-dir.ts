import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, normalize, sep } from "node:path";
import type { EpisodeResult } from "../../schemas/evaluation-result.js";
import { canonicalJson, sha256 } from "../../core/canonical-json.js";
import { FoundryError } from "../../core/errors.js";
import { parseTrace } from "../../../validation/parse-trace.js";
import { SETTINGS_FILE, type EvaluationSettings } from "../settings.js";
import { judgeSimulatedEpisode, storedJudgments } from "../rubric/judge-simulated.js";
import { readSettings } from "./read-settings.js";
import { loadEvalRelease, type EvalTask } from "../load-release.js";
import { readResults, RESULTS_FILE, TRACES_DIR } from "../results-log.js";
import { judgeEpisode, type EpisodeMeta } from "../judge-episode.js";
import { episodeKey } from "./episode-order.js";
import { writeEvaluationOutputs, type WrittenOutputs } from "./write-outputs.js";
import { readSimulatedOnly } from "./simulated-only-score.js";

/** Where `synth score` finds the release when the folder's settings name it. */
export interface ScoreOptions {
  /** Release folder or NAME@X.Y.Z; default: the name and version stored in settings.json. */
  release?: string;
  /** Where NAME@X.Y.Z is looked up. */
  releases?: string;
}

/** A stored result line that re-judging its trace does not reproduce. */
export interface Disagreement {
  episode: string;
  /** Result fields whose stored value differs from the re-judged one. */
  fields: string[];
}

/** What `synth score` did. */
export interface ScoreOutcome extends WrittenOutputs {
  episodes: number;
  disagreements: Disagreement[];
}

/** The stored trace path of a result, refused when it leaves the folder's traces/. */
function tracePath(dir: string, r: EpisodeResult): string {
  const rel = normalize(r.trace_file);
  if (isAbsolute(rel) || !rel.startsWith(`${TRACES_DIR}${sep}`) || rel.split(sep).includes("..")) {
    throw new FoundryError("SCORE_TRACE_PATH", `trace_file of ${episodeKey(r)} is not inside ${TRACES_DIR}/`, { file: join(dir, RESULTS_FILE), path: "trace_file" }, r.trace_file);
  }
  return join(dir, rel);
}

const META_FIELDS = ["agent", "user_sim", "condition", "run", "seed", "status", "error", "end", "turns", "usage", "trace_file", "trace_sha256"] as const;

/** Re-judge one stored episode from its trace file; the stored line gives only what a trace cannot (EpisodeMeta). */
function rejudge(dir: string, r: EpisodeResult, tasks: ReadonlyMap<string, EvalTask>, env: EvaluationSettings["env"]): EpisodeResult {
  const et = tasks.get(`${r.domain}/${r.task}`);
  if (!et) throw new FoundryError("SCORE_UNKNOWN_TASK", `episode ${episodeKey(r)} names a task the release does not have`, { file: join(dir, RESULTS_FILE) }, `${r.domain}/${r.task}`);
  const file = tracePath(dir, r);
  if (!existsSync(file)) throw new FoundryError("SCORE_TRACE_MISSING", `the trace of episode ${episodeKey(r)} is missing`, { file });
  const bytes = readFileSync(file);
  const digest = sha256(bytes);
  if (digest !== r.trace_sha256) throw new FoundryError("SCORE_TRACE_CHANGED", `the trace of episode ${episodeKey(r)} is not the one evaluated (sha256 ${digest}, results.jsonl says ${r.trace_sha256})`, { file }, digest);
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    throw new FoundryError("TRACE_INVALID", `not valid JSON: ${(e as Error).message}`, { file });
  }
  let trace;
  try {
    trace = parseTrace(data, `trace of ${episodeKey(r)}`);
  } catch (e) {
    if (FoundryError.is(e)) throw new FoundryError(e.code, e.message, { file, path: e.location.path }, e.value);
    throw e;
  }
  const meta = Object.fromEntries(META_FIELDS.map((k) => [k, r[k]])) as EpisodeMeta;
  const input = { task: et.task, trace, golden: et.golden, meta, domain: et.domain };
  // A simulated episode is re-voted from its stored judgments (no executable check ever judges it).
  if (env === "simulated") return judgeSimulatedEpisode(input, storedJudgments(r));
  return judgeEpisode(input, env);
}

/**
 * `synth score DIR`: re-judge every stored episode from its trace (every check re-run on the
 * release), then rewrite summary.json and report.html from those results with the writer
 * `synth evaluate` uses, so the bytes are the same as long as the traces are. Every bad episode
 * is reported (an AggregateError when several), none hides another; stored lines that re-judging
 * does not reproduce are returned as disagreements (the figures follow the traces).
 */
export async function scoreDirectory(dir: string, opts: ScoreOptions = {}): Promise<ScoreOutcome> {
  const settings = readSettings(dir);
  const release = loadEvalRelease(opts.release ?? `${settings.release.name}@${settings.release.version}`, opts.releases);
  if (release.root_hash !== settings.release.root_hash) {
    throw new FoundryError("SCORE_RELEASE_MISMATCH", `the release at ${release.dir} has root hash ${release.root_hash}, the evaluation ran on ${settings.release.root_hash}`, { file: join(dir, SETTINGS_FILE), path: "release.root_hash" }, release.root_hash);
  }
  const tasks = new Map(release.tasks.map((t) => [`${t.domain.id}/${t.task.id}`, t]));
  const stored = readResults(dir);
  const errors: unknown[] = [];
  const seen = new Set<string>();
  const rejudged: EpisodeResult[] = [];
  const disagreements: Disagreement[] = [];
  for (const r of stored) {
    const key = episodeKey(r);
    if (seen.has(key)) {
      errors.push(new FoundryError("SCORE_DUPLICATE_EPISODE", `episode ${key} is in results.jsonl more than once`, { file: join(dir, RESULTS_FILE) }, key));
      continue;
    }
    seen.add(key);
    try {
      const again = rejudge(dir, r, tasks, settings.env);
      rejudged.push(again);
      const fields = (Object.keys(again) as Array<keyof EpisodeResult>).filter((k) => canonicalJson(again[k] ?? null) !== canonicalJson(r[k] ?? null));
      if (fields.length > 0) disagreements.push({ episode: key, fields });
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0] : new AggregateError(errors, `${errors.length} episodes of ${dir} cannot be scored`);
  // Simulated-only tasks are reported apart: their stored judgments re-voted, the file kept as it is.
  const simulatedOnly = readSimulatedOnly(dir);
  const written = await writeEvaluationOutputs(dir, rejudged, settings, release, simulatedOnly?.result ?? null);
  return { ...written, episodes: rejudged.length, disagreements: [...disagreements, ...(simulatedOnly?.disagreements ?? [])] };
}
