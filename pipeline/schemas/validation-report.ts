import { z } from "zod";

export const GateResult = z
  .object({
    gate: z.enum(["golden_replay", "alternatives", "violations", "modified_facts", "scenario_consistency", "solvability", "difficulty"]).describe("Which gate."),
    passed: z.boolean().describe("Whether the task passed it."),
    detail: z.string().describe("Summary, naming the check and event that decided a failure."),
  })
  .strict();

export const MutantResult = z
  .object({
    operator: z.string().describe("Mutation operator, e.g. `drop_approval`."),
    target_check: z.string().nullable().describe("Check the mutant is meant to fail."),
    killed: z.boolean().describe("True when the mutant failed on its target check."),
    failed_checks: z.array(z.string()).describe("Checks the mutant failed."),
    description: z.string().optional().describe("What the mutation changed in the golden actions."),
    reason: z.string().optional().describe("Why it was killed (the target check's reason) or why it survived."),
  })
  .strict();

export const NotApplicableOperator = z
  .object({
    operator: z.string().describe("Mutation operator."),
    reason: z.string().describe("Why it does not apply to the task (nothing to mutate, or the world itself refuses the violation)."),
  })
  .strict();

export const SolveRate = z
  .object({
    model: z.string().describe("`provider:model` of the calibrator's model agent."),
    runs: z.number().int().min(1).describe("Runs of the model agent on the task (the domain card's `calibration.runs`)."),
    solved: z.number().int().min(0).describe("Runs whose trace strictly passed every check of the task."),
    rate: z.number().min(0).max(1).describe("solved / runs: 0 or 1 drops the task; otherwise it gives the difficulty label."),
  })
  .strict();
export type SolveRate = z.infer<typeof SolveRate>;

export const TaskValidation = z
  .object({
    task: z.string().describe("Task id."),
    status: z.enum(["released", "dropped"]).describe("Whether the task entered the release."),
    gates: z.array(GateResult).describe("Gate results in the order run."),
    mutants: z.array(MutantResult).describe("Violation traces and whether each was killed."),
    not_applicable: z.array(NotApplicableOperator).optional().describe("Operators that do not apply to the task, with the reason (not survivors)."),
    kill_rate: z.number().min(0).max(1).nullable().describe("Killed / total mutants; null without mutants."),
    repairs: z
      .array(z.object({ attempt: z.number().int().describe("1-based attempt."), diagnosis: z.string().describe("Gate, check and event that failed."), action: z.string().describe("What the repairer changed.") }).strict())
      .describe("Repair attempts."),
    probes: z.record(z.string(), z.boolean()).describe("Probe name → solved."),
    traps: z
      .array(
        z
          .object({
            check: z.string().describe("The check that enforces the rule in force."),
            in_force: z.string().nullable().describe("The clause in force, `document@version clause`."),
            outdated: z.string().nullable().describe("The clause of the version not in force that would lead elsewhere."),
            failed_by: z.array(z.string()).describe("Probes that follow a version not in force (newest-version, first-found) and failed the task."),
          })
          .strict(),
      )
      .optional()
      .describe("Version and scope traps the task contains, each with the wrong-version probes that fail on it."),
    difficulty: z.string().nullable().describe("Difficulty label."),
    solve_rate: SolveRate.optional().describe("The calibrator model's runs on the task; present only when the calibrator ran on a model."),
    drop_reason: z.string().nullable().describe("Why the task was dropped; null when released."),
  })
  .strict();
export type TaskValidation = z.infer<typeof TaskValidation>;

/** `generated/<domain>/validation.json`. */
export const ValidationReport = z
  .object({
    domain: z.string().describe("Domain id."),
    tasks: z.array(TaskValidation).describe("One entry per generated task."),
    summary: z
      .object({
        generated: z.number().int().describe("Tasks designed."),
        released: z.number().int().describe("Tasks that passed every gate."),
        dropped: z.number().int().describe("Tasks dropped, with reasons in `tasks`."),
        repaired: z.number().int().describe("Tasks that needed at least one repair."),
        mutants_total: z.number().int().describe("Violation traces run."),
        mutants_killed: z.number().int().describe("Violation traces that failed on their target check."),
        kill_rate: z.number().min(0).max(1).nullable().describe("mutants_killed / mutants_total."),
        kill_rate_by_operator: z.record(z.string(), z.number().min(0).max(1)).describe("Kill rate per mutation operator."),
        survivors: z
          .array(
            z
              .object({
                task: z.string().describe("Task id."),
                operator: z.string().describe("Operator whose mutant survived."),
                target_check: z.string().nullable().optional().describe("Check the mutant targeted; null when the task has none of the kinds it targets."),
                reason: z.string().optional().describe("Why it survived."),
              })
              .strict(),
          )
          .describe("Mutants no check caught."),
      })
      .strict()
      .describe("Domain totals."),
    branches: z
      .array(
        z
          .object({
            workflow: z.string().describe("Workflow id."),
            decision: z.string().describe("Decision id inside the workflow."),
            when: z.string().describe("The branch's condition as written."),
            tasks: z.array(z.string()).describe("Released tasks on which the condition held (the branch taken)."),
            reason: z.string().nullable().describe("Why no released task takes the branch; null when some do."),
          })
          .strict(),
      )
      .optional()
      .describe("Branch coverage: every branch of every decision of the workflows the released tasks combine."),
    invariants: z
      .array(
        z
          .object({
            rule: z.string().describe("Invariant rule id of the world model."),
            table: z.string().describe("Table the invariant is about."),
            checked: z.array(z.string()).describe("Released tasks with an invariant_holds check on the rule."),
            tested: z.array(z.string()).describe("Released tasks where a breach-then-restore violation trace broke the invariant and the check failed on it."),
            reason: z.string().nullable().describe("Why no released task tests the invariant; null when some do."),
          })
          .strict(),
      )
      .optional()
      .describe("Invariant coverage: every invariant rule of the world with the released tasks that test it."),
  })
  .strict()
  .describe("Validation report of one domain: per-task gates, mutants, repairs, probes and drops.");
export type ValidationReport = z.infer<typeof ValidationReport>;
