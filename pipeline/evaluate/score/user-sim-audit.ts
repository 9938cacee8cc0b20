import { UserSimFlag, type EvaluationResult, type EpisodeResult } from "../../schemas/evaluation-result.js";
import type { RandomStream } from "../../core/random.js";
import { rateOf } from "./rate.js";

/** Flag kinds of the transcript audit, always all listed (0 when none was raised). */
const FLAG_KINDS = [...UserSimFlag.shape.kind.options].sort();

/**
 * The customer audit over completed episodes: how many were flagged, flags by kind, and strict
 * success over the unflagged ones (so simulator error can be told from agent error).
 */
export function userSimAudit(results: readonly EpisodeResult[], stream: RandomStream): EvaluationResult["user_sim_audit"] {
  const done = results.filter((r) => r.status === "completed");
  const flags: Record<string, number> = Object.fromEntries(FLAG_KINDS.map((k) => [k, 0]));
  for (const r of done) for (const f of r.user_sim_flags) flags[f.kind] = (flags[f.kind] ?? 0) + 1;
  return {
    flagged_episodes: done.filter((r) => r.user_sim_flags.length > 0).length,
    flags,
    strict_success_unflagged: rateOf(
      done.filter((r) => r.user_sim_flags.length === 0),
      (r) => r.strict_success,
      stream,
    ),
  };
}
