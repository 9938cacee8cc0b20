/** The agents ranked when --agents is not given: the upper bound, the competent probe, a flawed probe, the lower bound (their executable scores differ on the sample release). */
export const DEFAULT_RANKED_AGENTS = ["oracle", "probe:competent", "probe:goal-rusher", "noop"] as const;

/** Fault condition of the ranking's evaluations. */
export const RANKING_CONDITIONS = ["E0"] as const;
