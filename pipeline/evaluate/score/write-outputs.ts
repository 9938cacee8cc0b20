import type { EpisodeResult, EvaluationResult } from "../../schemas/evaluation-result.js";
import type { SimulatedEvaluation } from "../../schemas/simulated.js";
import type { EvaluationSettings } from "../settings.js";
import type { EvalRelease } from "../load-release.js";
import { summarize } from "./summarize.js";
import { writeSummary } from "./write-summary.js";
import { writeReport } from "./report/write-report.js";

/** What writing an evaluation's outputs produced. */
export interface WrittenOutputs {
  summary: EvaluationResult;
  summaryPath: string;
  reportPath: string;
}

/**
 * Write `summary.json` and `report.html` of an evaluation folder from its episode results. The
 * one writer both `synth evaluate` and `synth score` call, so their bytes are the same. The
 * simulated-only tasks' results (simulated-only.json) get a section of their own in report.html.
 */
export async function writeEvaluationOutputs(dir: string, results: readonly EpisodeResult[], settings: EvaluationSettings, release: Pick<EvalRelease, "name" | "version" | "root_hash" | "tasks">, simulatedOnly: SimulatedEvaluation | null = null): Promise<WrittenOutputs> {
  const summary = summarize(results, settings, release);
  const summaryPath = writeSummary(dir, summary);
  const reportPath = await writeReport(dir, summary, results, release.tasks.map((t) => t.task), simulatedOnly);
  return { summary, summaryPath, reportPath };
}
