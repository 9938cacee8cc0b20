import { FoundryError } from "../core/errors.js";
import { modelFor, type AgentRole, type FoundryConfig } from "../core/config.js";
import type { Repairer, RubricWriter, Solver, TaskDesigner } from "../agents/types.js";
import { DeterministicTaskDesigner } from "../agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../agents/rubric-writer/deterministic.js";
import { DeterministicSolver } from "../agents/solver/deterministic.js";
import { DeterministicRepairer } from "../agents/repairer/deterministic.js";

export interface Strategies {
  designer: TaskDesigner;
  rubricWriter: RubricWriter;
  solver: Solver;
  repairer: Repairer;
  names: Record<string, string>;
}

/** Roles of the build graph whose llm strategy is not built yet: configuring a model for them is refused. */
const DETERMINISTIC_ONLY: AgentRole[] = ["task-designer", "rubric-writer", "solver", "repairer", "environment-builder", "verifier", "calibrator"];

/**
 * The strategy of every role for this configuration. A role with a model configured must have an llm
 * strategy; where one does not exist yet, the build refuses with a clear message instead of silently
 * running the deterministic one under the model's name.
 */
export function chooseStrategies(config: FoundryConfig): Strategies {
  const names: Record<string, string> = {};
  for (const role of ["sop-extractor", ...DETERMINISTIC_ONLY] as AgentRole[]) names[role] = modelFor(config, role);
  const wanted = DETERMINISTIC_ONLY.filter((r) => names[r] !== "deterministic");
  if (wanted.length > 0) {
    throw new FoundryError(
      "STRATEGY_UNAVAILABLE",
      `no llm strategy exists yet for ${wanted.join(", ")}; configure a model only for sop-extractor (e.g. --model-for sop-extractor=${names[wanted[0] as string]}) or leave these roles deterministic`,
      { path: "models" },
      names[wanted[0] as string],
    );
  }
  return { designer: new DeterministicTaskDesigner(), rubricWriter: new DeterministicRubricWriter(), solver: new DeterministicSolver(), repairer: new DeterministicRepairer(), names };
}
