import type { MutantResult, Task, Trace } from "../schemas/index.js";
import type { z } from "zod";
import type { DomainContext } from "../world/domain-context.js";
import { runMutants } from "../../validation/mutants/run-mutants.js";
import { violationLabel } from "../../validation/audit/release-layout.js";

/**
 * Violation traces for the mutants a validation report lists for one task, produced again with the
 * mutation operators of validation/mutants (for a build that recorded the verdicts but not the
 * traces). The n-th mutant of an operator in the report takes the n-th trace that operator yields;
 * a mutant the operators no longer produce gets no trace, and the audit reports it as not stored.
 */
export function regenerateViolations(ctx: DomainContext, task: Task, golden: Trace, recorded: ReadonlyArray<z.infer<typeof MutantResult>>): Array<{ label: string; trace: Trace }> {
  if (recorded.length === 0) return [];
  const run = runMutants(ctx, task, golden);
  const seen = new Map<string, number>();
  const out: Array<{ label: string; trace: Trace }> = [];
  for (const m of recorded) {
    const ordinal = (seen.get(m.operator) ?? 0) + 1;
    seen.set(m.operator, ordinal);
    const outcome = run.mutants.filter((x) => x.operator === m.operator)[ordinal - 1];
    if (outcome) out.push({ label: violationLabel(m.operator, ordinal), trace: outcome.trace });
  }
  return out;
}
