import type { AcceptanceCheck, Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import type { EpisodeAction, ParsedAction } from "../episode-actions.js";

/** What an operator gets: the task, its golden trace and the golden actions (aligned with the plan). */
export interface MutationInput {
  ctx: DomainContext;
  task: Task;
  golden: Trace;
  parsed: ParsedAction[];
  /** Plan step index each golden action realises, or null. */
  plan: Array<number | null>;
  /** Every check of the task, goal then process then protection. */
  checks: AcceptanceCheck[];
}

/** One violation trace to run: the actions, the check it must fail, and what was changed. */
export interface MutantPlan {
  operator: string;
  /** The check the mutant must fail; null when the task has no check of the kinds the operator targets (a gap). */
  target_check: string | null;
  description: string;
  actions: EpisodeAction[];
  /** Positions in `actions` of the calls the mutation inserted, moved or altered. */
  mutated: number[];
  /**
   * When every mutated call is refused by the world, the violation never happened: the mutant is
   * equivalent to a valid trace and is reported as not applicable, not as a survivor.
   */
  refusalIsEquivalent: boolean;
}

/** An operator that does not apply to a task, and why. */
export interface NotApplicable {
  operator: string;
  reason: string;
}

/** A mutation operator: one way of breaking a valid execution, aimed at one kind of check. */
export interface MutationOperator {
  readonly name: string;
  /** The violation it produces, in one sentence. */
  readonly description: string;
  /** Check kinds it targets. */
  readonly targets: readonly string[];
  generate(input: MutationInput): Array<MutantPlan | NotApplicable>;
}

export function isPlan(x: MutantPlan | NotApplicable): x is MutantPlan {
  return "actions" in x;
}
