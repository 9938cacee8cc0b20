import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FoundryError } from "../../core/errors.js";
import { SimulatedEvaluation } from "../../schemas/index.js";
import { revoteProblems, rubricGroups } from "../../../validation/rubric-revote.js";
import { SIMULATED_ONLY_FILE } from "../simulated-only-tasks.js";

/**
 * An evaluation folder's simulated-only results (`simulated-only.json`), for `synth score`: each
 * completed episode's stored judgments re-voted; an episode whose stored verdict they do not give
 * is a disagreement (`simulated-only <task> <condition> <run>`, field `criteria`). null when the
 * evaluation selected no simulated-only task.
 */
export function readSimulatedOnly(dir: string): { result: SimulatedEvaluation; disagreements: Array<{ episode: string; fields: string[] }> } | null {
  const file = join(dir, SIMULATED_ONLY_FILE);
  if (!existsSync(file)) return null;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new FoundryError("SCORE_INVALID_RESULTS", `not valid JSON: ${(e as Error).message}`, { file });
  }
  const parsed = SimulatedEvaluation.safeParse(data);
  if (!parsed.success) throw new FoundryError("SCORE_INVALID_RESULTS", `does not match the simulated-evaluation schema: ${parsed.error.issues[0]?.message ?? "invalid"} at ${parsed.error.issues[0]?.path.join(".") ?? ""}`, { file });
  const disagreements = parsed.data.episodes
    .filter((e) => e.status === "completed")
    .filter((e) => {
      const g = rubricGroups(e.criteria);
      return revoteProblems(e.criteria).length > 0 || g.goal !== e.goal || g.process !== e.process || g.protection !== e.protection || (g.goal && g.process && g.protection) !== e.strict_success;
    })
    .map((e) => ({ episode: `simulated-only ${e.task} ${e.condition} ${e.run}`, fields: ["criteria"] }));
  return { result: parsed.data, disagreements };
}
