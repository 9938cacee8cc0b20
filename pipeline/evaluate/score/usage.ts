import type { EpisodeResult, RoleUsage } from "../../schemas/evaluation-result.js";
import { round6 } from "./episode-order.js";

/**
 * Tokens and cost per role over every episode (errored ones too: their calls were made and
 * paid). A role's cost is null when any of its episodes has no price, so a partial sum never
 * passes for the total.
 */
export function totalUsage(results: readonly EpisodeResult[]): Record<string, RoleUsage> {
  const out: Record<string, RoleUsage> = {};
  for (const r of results) {
    for (const role of Object.keys(r.usage).sort()) {
      const u = r.usage[role] as RoleUsage;
      const t = out[role] ?? { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 };
      t.calls += u.calls;
      t.input_tokens += u.input_tokens;
      t.output_tokens += u.output_tokens;
      t.cost_usd = t.cost_usd === null || u.cost_usd === null ? null : round6(t.cost_usd + u.cost_usd);
      out[role] = t;
    }
  }
  return out;
}
