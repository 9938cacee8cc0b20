import { z } from "zod";
import { CheckResult } from "./acceptance-check.js";

/** Fault conditions: E0 clean, E1 explicit errors, E2 implicit degradation, E3 both. */
export const Condition = z.enum(["E0", "E1", "E2", "E3"]).describe("Fault condition.");
export type Condition = z.infer<typeof Condition>;

/** Agent calls of one episode, split by kind (efficiency is computed from these and the golden trace's). */
export const CallCounts = z
  .object({
    total: z.number().int().min(0).describe("Agent tool calls, every kind."),
    document_reads: z.number().int().min(0).describe("Calls of the document tools (list, search, read)."),
    distinct_documents: z.number().int().min(0).describe("Distinct documents read."),
    queries: z.number().int().min(0).describe("Calls of the read-only query tool."),
    discovery: z.number().int().min(0).describe("Calls of the discovery tools (list/describe/invoke capability, counted as discovery only for list and describe)."),
    operations: z.number().int().min(0).describe("Business operations (direct, or through invoke_capability)."),
    messages: z.number().int().min(0).describe("Messages to the customer."),
    waits: z.number().int().min(0).describe("Calls of wait."),
    repeats: z.number().int().min(0).describe("Calls identical (tool and arguments) to an earlier call of the episode."),
    rejected: z.number().int().min(0).describe("Calls the world rejected (failed precondition)."),
    errored: z.number().int().min(0).describe("Calls that errored (bad tool, bad arguments, SQL error) or were faulted."),
  })
  .strict()
  .describe("Agent calls by kind.");
export type CallCounts = z.infer<typeof CallCounts>;

/** Tokens and cost of one role in one episode. */
export const RoleUsage = z
  .object({
    calls: z.number().int().min(0).describe("Model calls."),
    input_tokens: z.number().int().min(0).describe("Prompt tokens."),
    output_tokens: z.number().int().min(0).describe("Completion tokens."),
    cost_usd: z.number().min(0).nullable().describe("Cost in US dollars, null when the model has no price."),
  })
  .strict();
export type RoleUsage = z.infer<typeof RoleUsage>;

/** One finding of the deterministic audit of the customer simulator's transcript. */
export const UserSimFlag = z
  .object({
    kind: z
      .enum(["unprompted_disclosure", "contradicted_fact", "unrequested_action", "unagreed_approval"])
      .describe("What the customer simulator did wrong."),
    event: z.number().int().min(0).describe("Trace event index where it happened."),
    detail: z.string().describe("What was said or done, naming the fact, action or terms."),
  })
  .strict();
export type UserSimFlag = z.infer<typeof UserSimFlag>;

/** One model judgment of one rubric criterion. */
export const RubricJudgment = z
  .object({
    round: z.number().int().min(1).describe("Which independent judgment (1-based; each is its own model call)."),
    met: z.boolean().describe("Whether the judge found the criterion met on the trajectory."),
    reason: z.string().describe("The judge's reason, citing what happened."),
  })
  .strict();
export type RubricJudgment = z.infer<typeof RubricJudgment>;

/** One criterion of the rubric verifier (simulated evaluation), with its vote and every judgment. */
export const RubricCriterion = z
  .object({
    id: z.string().describe("The check the criterion is derived from (its id)."),
    group: z.enum(["goal", "process", "protection"]).describe("The check's group."),
    text: z.string().describe("The criterion as the judge read it: the check's description and the rule or customer requirement it enforces (never the check's code)."),
    met: z.boolean().nullable().describe("The majority verdict; null when no strict majority."),
    votes: z.number().int().min(0).describe("Judgments that gave the majority verdict (or the most common one)."),
    total: z.number().int().min(3).describe("Judgments cast (at least 3)."),
    split: z.boolean().describe("The judgments disagreed (e.g. 2–1); every judgment is kept."),
    judgments: z.array(RubricJudgment).min(3).describe("Every judgment, in round order."),
  })
  .strict();
export type RubricCriterion = z.infer<typeof RubricCriterion>;

/** One line of `results.jsonl`: one episode, judged by the release's checks. */
export const EpisodeResult = z
  .object({
    task: z.string().describe("Task id."),
    domain: z.string().describe("Domain id."),
    industry: z.string().describe("Industry of the domain (its card)."),
    difficulty: z.string().nullable().describe("Difficulty label of the task in the release, if any."),
    agent: z.string().describe("Agent spec as given (e.g. oracle, probe:competent, openai:gpt-4.1)."),
    user_sim: z.string().describe("Customer simulator spec (deterministic or provider:model)."),
    condition: Condition,
    run: z.number().int().min(0).describe("Which of the k runs (0-based)."),
    seed: z.number().int().describe("Episode seed, derived from (evaluation seed, task, condition, run)."),
    status: z.enum(["completed", "errored"]).describe("errored: the episode could not be judged (provider failure after retries, evaluator bound); left out of every rate."),
    error: z.object({ class: z.string().describe("Error class (rate_limit, server_error, timeout, connection, auth, invalid_answer, bound, internal)."), message: z.string().describe("What went wrong.") }).strict().nullable().describe("Why the episode errored; null when completed."),
    end: z.enum(["finished", "max_turns", "max_tool_calls", "wall_time", "gave_up", "errored"]).describe("How the episode ended."),
    goal: z.boolean().describe("All goal checks passed."),
    process: z.boolean().describe("All process checks passed."),
    protection: z.boolean().describe("All protection checks passed."),
    strict_success: z.boolean().describe("goal ∧ process ∧ protection."),
    goal_reached_but_invalid: z.boolean().describe("Goal checks passed but a process or protection check failed."),
    checks: z.array(CheckResult).describe("Every check's result."),
    calls: CallCounts,
    golden_calls: CallCounts.describe("The same counts for the task's golden trace."),
    faults_injected: z.number().int().min(0).describe("Faults the fault layer injected in this episode."),
    turns: z.number().int().min(0).describe("Agent turns (model turns for a model agent, actions for a scripted one)."),
    usage: z.record(z.string(), RoleUsage).describe("Role (agent, user-sim) → tokens and cost."),
    user_sim_flags: z.array(UserSimFlag).describe("Findings of the transcript audit; empty when the customer behaved."),
    trace_file: z.string().describe("Path of the episode's trace, relative to the evaluation folder."),
    trace_sha256: z.string().describe("sha256 of the trace file's bytes."),
    env: z.enum(["executable", "simulated", "hybrid"]).optional().describe("Environment mode of the episode; absent: executable."),
    rubric: z.array(RubricCriterion).optional().describe("Simulated episodes only: the rubric verifier's criteria, votes and every judgment (the goal, process and protection verdicts are their majorities; no executable check ran)."),
  })
  .strict()
  .describe("One evaluated episode.");
export type EpisodeResult = z.infer<typeof EpisodeResult>;

/** A rate with its 95% confidence interval (seeded bootstrap over tasks); null rate when nothing was counted. */
export const Rate = z
  .object({
    rate: z.number().min(0).max(1).nullable().describe("Share, null when n is 0."),
    lo: z.number().min(0).max(1).nullable().describe("Lower end of the 95% interval."),
    hi: z.number().min(0).max(1).nullable().describe("Upper end of the 95% interval."),
    n: z.number().int().min(0).describe("Episodes counted."),
  })
  .strict();
export type Rate = z.infer<typeof Rate>;

/** Rates of one slice (a condition, a domain, an industry, a difficulty, a task). */
export const SliceScores = z
  .object({
    strict_success: Rate.describe("Rate of strict success."),
    goal: Rate.describe("Rate of goal."),
    process: Rate.describe("Rate of process."),
    protection: Rate.describe("Rate of protection."),
    goal_reached_but_invalid: Rate.describe("Rate of goal reached but invalid."),
    episodes: z.number().int().min(0).describe("Completed episodes in the slice."),
  })
  .strict();
export type SliceScores = z.infer<typeof SliceScores>;

/** Output of `synth evaluate` / `synth score` (`summary.json`): every figure recomputable from the traces. */
export const EvaluationResult = z
  .object({
    release: z.object({ name: z.string().describe("Release name."), version: z.string().describe("Release version."), root_hash: z.string().describe("Root hash the evaluator verified.") }).strict().describe("The release evaluated."),
    agent: z.string().describe("Agent spec."),
    user_sim: z.string().describe("Customer simulator spec."),
    settings: z.record(z.string(), z.unknown()).describe("Every setting of the evaluation (conditions, runs, bounds, tools, ablation, seed, fault events and duration, tasks)."),
    k: z.number().int().min(1).describe("Runs per task and condition."),
    episodes: z.object({ total: z.number().int().min(0).describe("Episodes run."), completed: z.number().int().min(0).describe("Episodes judged."), errored: z.number().int().min(0).describe("Episodes that errored.") }).strict().describe("Episode counts; errored ones are left out of every rate."),
    errored: z.array(z.object({ task: z.string().describe("Task id."), condition: Condition, run: z.number().int().describe("Run index."), class: z.string().describe("Error class."), message: z.string().describe("What went wrong.") }).strict()).describe("Every errored episode with its reason."),
    overall: SliceScores.describe("All completed episodes."),
    by_condition: z.record(z.string(), SliceScores).describe("Condition → scores."),
    by_domain: z.record(z.string(), SliceScores).describe("Domain → scores."),
    by_industry: z.record(z.string(), SliceScores).describe("Industry → scores."),
    by_difficulty: z.record(z.string(), SliceScores).describe("Difficulty → scores."),
    by_task: z.record(z.string(), SliceScores).describe("Task → scores."),
    pass_hat_k: z.record(z.string(), z.record(z.string(), z.number().nullable())).describe("Condition → k (1…K) → mean over tasks of C(c,k)/C(n,k)."),
    completion: z.record(z.string(), Rate).describe("Condition → completion rate (strict success)."),
    robustness: z.number().nullable().describe("min(CR_E1, CR_E2, CR_E3) / CR_E0; null when CR_E0 is 0 or a condition was not run."),
    efficiency: z.record(z.string(), z.unknown()).describe("Agent calls ÷ golden calls, overall and by kind, with repeats and rejected/errored calls."),
    caps: z.record(z.string(), Rate).describe("Cap (1.2x, 1.5x, 2x the golden calls) → strict success if every episode were cut there."),
    usage: z.record(z.string(), RoleUsage).describe("Role → tokens and cost over every episode."),
    user_sim_audit: z.object({ flagged_episodes: z.number().int().min(0).describe("Episodes with at least one flag."), flags: z.record(z.string(), z.number().int().min(0)).describe("Flag kind → count."), strict_success_unflagged: Rate.describe("Strict success over unflagged episodes.") }).strict().describe("Transcript audit: flagged episodes, flags by kind, strict success over unflagged episodes."),
  })
  .strict()
  .describe("Scores of one agent on one release.");
export type EvaluationResult = z.infer<typeof EvaluationResult>;
