import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EpisodeResult, EvaluationResult, SimulatedEvaluation, Task } from "../../../schemas/index.js";
import { chartSpecs } from "./chart-specs.js";
import { renderSvg } from "./render-svg.js";
import { failedChecks } from "./failed-checks.js";
import { reportPage, type RenderedChart } from "./html.js";

/** File name of the report inside an evaluation folder. */
export const REPORT_FILE = "report.html";

/**
 * The bytes of report.html: the summary's figures, its charts rendered to inline SVG now, and the
 * failed checks of `results` with the clause each enforces (looked up in the release's `tasks`).
 * Deterministic: the same summary, results and tasks give the same bytes.
 */
export async function reportHtml(summary: EvaluationResult, results: readonly EpisodeResult[], tasks: readonly Task[], simulatedOnly: SimulatedEvaluation | null = null): Promise<string> {
  const charts: RenderedChart[] = [];
  for (const c of chartSpecs(summary)) charts.push({ id: c.id, title: c.title, caption: c.caption, svg: await renderSvg(c.spec, c.id) });
  return reportPage(summary, charts, failedChecks(results, tasks), simulatedOnly);
}

/** Write `report.html` into `dir` atomically; returns its path. */
export async function writeReport(dir: string, summary: EvaluationResult, results: readonly EpisodeResult[], tasks: readonly Task[], simulatedOnly: SimulatedEvaluation | null = null): Promise<string> {
  const path = join(dir, REPORT_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, await reportHtml(summary, results, tasks, simulatedOnly));
  renameSync(tmp, path);
  return path;
}
