import { canonicalJson } from "../core/canonical-json.js";
import { AGENT_ROLES, FoundryConfig, modelFor } from "../core/config.js";
import { FoundryError } from "../core/errors.js";

/** Every setting a run depends on, flattened (`model`, `models.solver`, `seed`, `temperature`, …). */
function flatten(config: FoundryConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Where the database is (and its password) may change between a build and its resume; what it computes may not.
  for (const [k, v] of Object.entries(config)) if (k !== "models" && k !== "model" && k !== "database_url") out[k] = v;
  for (const role of AGENT_ROLES) out[`models.${role}`] = modelFor(config, role);
  return out;
}

/**
 * The configuration a resumed run continues with: the one stored with the run. Settings given for
 * the resume (command-line flags, environment) must agree with it; the first that does not is
 * refused with RESUME_SETTINGS_CONFLICT naming the setting and both values, since a run that
 * changes its models or seed halfway is neither what was started nor what was asked for.
 */
export function resumeConfig(run: string, stored: FoundryConfig, given: Record<string, unknown>, where: string): FoundryConfig {
  const merged = FoundryConfig.parse({ ...stored, ...given, models: { ...stored.models, ...((given.models as Record<string, string> | undefined) ?? {}) } });
  const before = flatten(stored);
  const after = flatten(merged);
  for (const key of Object.keys(after).sort()) {
    if (canonicalJson(before[key]) !== canonicalJson(after[key])) {
      throw new FoundryError(
        "RESUME_SETTINGS_CONFLICT",
        `run ${run} was started with ${key} = ${canonicalJson(before[key])}; the ${where} asks for ${canonicalJson(after[key])}. Resume without it, or start a new build`,
        { path: key },
        after[key],
      );
    }
  }
  return stored;
}
