import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Trace } from "../schemas/index.js";
import { EpisodeResult } from "../schemas/evaluation-result.js";
import { sha256, stableJson } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { validateAgainst } from "../core/schema-issues.js";

export const RESULTS_FILE = "results.jsonl";
export const TRACES_DIR = "traces";

/** Which episode: task, condition and run. */
export interface EpisodeKey {
  domain: string;
  task: string;
  condition: string;
  run: number;
}

/** `domain/task/condition/run` as one string. */
export function episodeId(k: EpisodeKey): string {
  return `${k.domain}/${k.task}/${k.condition}/${k.run}`;
}

/** Where an episode's trace goes, relative to the evaluation folder. */
export function traceFile(k: EpisodeKey): string {
  return `${TRACES_DIR}/${k.domain}/${k.task}.${k.condition}.run${k.run}.json`;
}

/** Write a file whole (fsynced, renamed into place): a reader never sees half of it. */
export function writeDurably(file: string, data: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Write an episode's trace (stable JSON, fsynced, renamed into place); returns its path and sha256. */
export function writeTrace(dir: string, k: EpisodeKey, trace: Trace): { file: string; sha256: string } {
  const file = traceFile(k);
  const text = stableJson(trace);
  writeDurably(join(dir, file), text);
  return { file, sha256: sha256(text) };
}

/**
 * The results of an evaluation folder, one schema-checked line per finished episode. A last line
 * cut short by a kill is dropped (and cut off the file, so the next append starts a clean line);
 * any other bad line is an error naming its line.
 */
export function readResults(dir: string, repair = false): EpisodeResult[] {
  const file = join(dir, RESULTS_FILE);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  const complete = text.endsWith("\n") ? text : text.slice(0, text.lastIndexOf("\n") + 1);
  if (repair && complete !== text) truncateSync(file, Buffer.byteLength(complete));
  const out: EpisodeResult[] = [];
  complete.split("\n").forEach((line, i) => {
    if (line === "") return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch (e) {
      throw new FoundryError("RESULTS_INVALID", `not valid JSON: ${(e as Error).message}`, { file, line: i + 1 });
    }
    const r = validateAgainst(EpisodeResult, data, { file });
    if (!r.ok) throw new FoundryError("RESULTS_INVALID", `line is not an evaluation-episode: ${r.issues.map((x) => `${x.path}: ${x.message}`).join("; ")}`, { file, line: i + 1 });
    out.push(r.value);
  });
  return out;
}

/** Append one finished episode's result as a line (schema-checked first), fsynced. */
export function appendResult(dir: string, result: EpisodeResult): void {
  const checked = EpisodeResult.parse(result);
  const fd = openSync(join(dir, RESULTS_FILE), "a");
  try {
    writeSync(fd, `${JSON.stringify(checked)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Put results.jsonl in one order (`rank` of each result, ties kept as they are), written whole and
 * renamed into place; returns the results in that order. Bytes already in that order are left alone.
 */
export function rewriteResults(dir: string, rank: (r: EpisodeResult) => number): EpisodeResult[] {
  const results = readResults(dir);
  const sorted = results.map((r, i) => ({ r, i, k: rank(r) })).sort((a, b) => a.k - b.k || a.i - b.i);
  if (sorted.every((x, i) => x.i === i)) return results;
  writeDurably(join(dir, RESULTS_FILE), sorted.map((x) => `${JSON.stringify(x.r)}\n`).join(""));
  return sorted.map((x) => x.r);
}

/** Write a JSON file durably (settings.json). */
export function writeJsonFile(file: string, value: unknown): void {
  writeDurably(file, stableJson(value));
}

/** Start an evaluation folder over: an empty results file (traces are overwritten as episodes finish). */
export function resetResults(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, RESULTS_FILE), "");
}
