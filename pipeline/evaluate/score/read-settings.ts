import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FoundryError } from "../../core/errors.js";
import { EvaluationSettings, SETTINGS_FILE } from "../settings.js";

/** The settings an evaluation folder stores (`settings.json`), checked; a folder without them is not an evaluation. */
export function readSettings(dir: string): EvaluationSettings {
  const file = join(dir, SETTINGS_FILE);
  if (!existsSync(file)) throw new FoundryError("SCORE_NOT_EVALUATION", `not an evaluation folder: ${SETTINGS_FILE} is missing`, { file: dir });
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new FoundryError("EVALUATION_SETTINGS_INVALID", `not valid JSON: ${(e as Error).message}`, { file });
  }
  const r = EvaluationSettings.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new FoundryError("EVALUATION_SETTINGS_INVALID", `does not hold evaluation settings: ${i?.path.join(".")}: ${i?.message}`, { file, path: i?.path.join(".") });
  }
  return r.data;
}

