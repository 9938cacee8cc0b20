import { z } from "zod";
import { CheckResult } from "./acceptance-check.js";

export const EpisodeResult = z
  .object({
    task: z.string().describe("Task id."),
    agent: z.string().describe("Agent name."),
    condition: z.enum(["E0", "E1", "E2", "E3"]).describe("Fault condition."),
    run: z.number().int().min(0).describe("Which of the k runs."),
    seed: z.number().int().describe("Episode seed."),
    goal: z.boolean().describe("All goal checks passed."),
    process: z.boolean().describe("All process checks passed."),
    protection: z.boolean().describe("All protection checks passed."),
    strict_success: z.boolean().describe("goal ∧ process ∧ protection."),
    checks: z.array(CheckResult).describe("Every check's result."),
    tool_calls: z.number().int().min(0).describe("Agent tool calls in the episode."),
    golden_tool_calls: z.number().int().min(0).describe("Tool calls of the golden trace."),
    trace_file: z.string().describe("Release-relative or run-relative path of the episode's trace."),
  })
  .strict();
export type EpisodeResult = z.infer<typeof EpisodeResult>;

/** Output of `synth evaluate` / `synth score`. */
export const EvaluationResult = z
  .object({
    release: z.object({ name: z.string().describe("Release name."), version: z.string().describe("Release version."), root_hash: z.string().describe("Root hash the evaluator verified.") }).strict().describe("The release evaluated."),
    agent: z.string().describe("Agent name."),
    k: z.number().int().min(1).describe("Runs per task and condition."),
    episodes: z.array(EpisodeResult).describe("Every episode."),
    scores: z
      .object({
        strict_success: z.record(z.string(), z.number()).describe("Condition → rate of strict success."),
        pass_hat_k: z.number().describe("Share of tasks solved in all k E0 runs."),
        robustness: z.number().nullable().describe("min(CR_E1, CR_E2, CR_E3) / CR_E0."),
        efficiency: z.number().nullable().describe("Mean golden tool calls / agent tool calls over strictly successful episodes."),
      })
      .strict()
      .describe("Aggregate scores."),
  })
  .strict()
  .describe("Scores of one agent on one release.");
export type EvaluationResult = z.infer<typeof EvaluationResult>;
