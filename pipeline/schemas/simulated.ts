import { z } from "zod";
import { Slug } from "./provenance.js";
import { DomainCard } from "./domain-card.js";
import { DIFFICULTIES, Scenario } from "./task.js";
import { Condition, RubricCriterion } from "./evaluation-result.js";
import { SolveRate } from "./validation-report.js";

/*
 * Artifacts of simulated-only domains (`environment: simulated`, no world.yaml): what they release
 * in place of the executable world, checks and golden traces. Kept out of ARTIFACTS so a release of
 * executable domains carries exactly the schemas it always did; written when a release holds a
 * simulated-only domain (and always by `synth schema`).
 */

/** How a domain is built: an executable world (world.yaml), or only an environment simulator's configuration. */
export const DomainEnvironment = z
  .enum(["executable", "simulated"])
  .describe("executable (default): the domain has a world.yaml and executable checks; simulated: no world, tasks are run under a language-model environment simulator and scored by the rubric verifier only.");
export type DomainEnvironment = z.infer<typeof DomainEnvironment>;

/** The card as authored: the domain card plus its optional `environment` (absent means executable). */
export const DomainCardSource = DomainCard.extend({ environment: DomainEnvironment.optional() }).strict();

/** `domains/<d>/domain.json` of a simulated-only domain in a release. */
export const SimulatedDomainCard = DomainCard.extend({ environment: z.literal("simulated").describe("The domain is simulated-only.") })
  .strict()
  .describe("Domain card of a simulated-only domain.");
export type SimulatedDomainCard = z.infer<typeof SimulatedDomainCard>;

/** Clause ids a plan step or criterion enforces; each must be defined in one of the domain's documents. */
const Clauses = z.array(z.string().min(1)).min(1).describe("Clause ids (e.g. `RET-2.1`) of the domain's documents this enforces; each must be defined in a document.");

export const SolutionStep = z
  .object({
    step: z.number().int().min(1).describe("Position in the plan."),
    tool: z.string().min(1).describe("Tool of the environment configuration the agent calls, or `send_message` to ask or tell the customer."),
    args: z.record(z.string(), z.unknown()).describe("Arguments of the call."),
    why: z.string().min(1).describe("Why the step is needed."),
    clauses: z.array(z.string().min(1)).describe("Clause ids the step follows (may be empty for a plain lookup)."),
  })
  .strict();
export type SolutionStep = z.infer<typeof SolutionStep>;

export const SimulatedCriterion = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).describe("Criterion id, unique in the task."),
    group: z.enum(["goal", "process", "protection"]).describe("goal: the requested outcome; process: the rules on the way; protection: nothing protected touched."),
    text: z.string().min(1).describe("What the trajectory must show, in words a judge can check on a transcript."),
    clauses: Clauses,
  })
  .strict();
export type SimulatedCriterion = z.infer<typeof SimulatedCriterion>;

/**
 * `domains/<d>/tasks/<task>.json` of a simulated-only domain: the task, a solution plan and a
 * rubric whose criteria cite the clauses they enforce. Never scored by executable checks (it has
 * none); the rubric verifier judges it.
 */
export const SimulatedTask = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).describe("Task id, unique in the domain."),
    domain: Slug.describe("Domain id."),
    simulated_only: z.literal(true).describe("Marks a simulated-only task: run under the environment simulator and scored by its rubric only."),
    title: z.string().min(1).describe("Short title for reviewers."),
    objective: z.string().min(1).describe("What a successful episode achieves."),
    as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe("Business date of the task."),
    customer_id: z.string().min(1).describe("Key of the customer the task is about (a row of the configuration's initial state)."),
    scenario: Scenario.describe("The simulated customer."),
    solution_plan: z.array(SolutionStep).min(1).describe("One correct way to solve the task (shown to the solver, never to the calibrator's or an evaluated agent)."),
    rubric: z.array(SimulatedCriterion).min(1).describe("The criteria the rubric verifier judges; strict success needs every one met by majority."),
    documents: z.object({ relevant: z.array(z.string()).describe("Applicable document ids."), distractors: z.array(z.string()).describe("Versions that must not be followed (`id@version`).") }).strict(),
    difficulty: z.enum(DIFFICULTIES).nullable().describe("Label from the calibrator's solve rate; null until calibrated."),
    max_turns: z.number().int().min(1).describe("Upper bound of agent turns in an episode."),
  })
  .strict()
  .describe("A simulated-only task.");
export type SimulatedTask = z.infer<typeof SimulatedTask>;

/**
 * `domains/<d>/verdicts/<task>.json`: the rubric verifier's verdict on the solver's trajectory
 * (`trajectories/<task>.json`), every judgment stored; the audit re-votes them.
 */
export const SimulatedVerdict = z
  .object({
    task: z.string().min(1).describe("Task id."),
    trajectory_sha256: z.string().regex(/^[0-9a-f]{64}$/).describe("sha256 of the trajectory file's bytes the judgments are about."),
    criteria: z.array(RubricCriterion).min(1).describe("One entry per rubric criterion: the majority verdict, the vote, a split flag and every judgment."),
    goal: z.boolean().describe("Every goal criterion met by majority."),
    process: z.boolean().describe("Every process criterion met by majority."),
    protection: z.boolean().describe("Every protection criterion met by majority."),
    passed: z.boolean().describe("goal, process and protection."),
  })
  .strict()
  .describe("The rubric verifier's stored verdict on a simulated-only task's solver trajectory.");
export type SimulatedVerdict = z.infer<typeof SimulatedVerdict>;

/** One task of a simulated-only domain's build report (`validation.json`). */
export const SimulatedTaskReport = z
  .object({
    task: z.string().describe("Task id."),
    status: z.enum(["released", "dropped"]).describe("Whether the task entered the release."),
    repairs: z.array(z.object({ attempt: z.number().int().min(1), diagnosis: z.string(), action: z.string() }).strict()).describe("Repairs made, in order."),
    solve_rate: SolveRate.nullable().describe("The calibrator's model agent runs without the plan; null when the task was dropped before calibration."),
    difficulty: z.enum(DIFFICULTIES).nullable().describe("Label of a released task."),
    drop_reason: z.string().nullable().describe("Why the task was dropped; null when released."),
  })
  .strict();

/** `domains/<d>/validation.json` of a simulated-only domain. */
export const SimulatedReport = z
  .object({
    domain: z.string().describe("Domain id."),
    environment: z.literal("simulated"),
    slots: z.number().int().min(0).describe("Task slots designed."),
    released: z.number().int().min(0),
    dropped: z.array(z.object({ slot: z.number().int().min(0), task: z.string().nullable(), reason: z.string() }).strict()).describe("Every dropped slot with its reason."),
    tasks: z.array(SimulatedTaskReport).describe("Every designed task."),
  })
  .strict()
  .describe("Build report of a simulated-only domain.");
export type SimulatedReport = z.infer<typeof SimulatedReport>;

/** One episode of a simulated-only task in an evaluation (`simulated-only.json`): the rubric verifier's judgment, every vote kept. */
export const SimulatedEpisode = z
  .object({
    task: z.string().describe("Task id."),
    domain: z.string().describe("Domain id."),
    condition: Condition,
    run: z.number().int().min(0).describe("Run index."),
    seed: z.number().int().describe("Episode seed."),
    status: z.enum(["completed", "errored"]).describe("completed: judged by the rubric verifier; errored: the agent's, simulator's or judge's provider failed."),
    end: z.string().nullable().describe("How the episode ended (finished, gave_up, max_turns, max_tool_calls, wall_time); null when errored."),
    error: z.string().nullable().describe("What went wrong, when errored."),
    criteria: z.array(RubricCriterion).describe("Each rubric criterion's majority verdict with every judgment (empty when errored)."),
    goal: z.boolean(),
    process: z.boolean(),
    protection: z.boolean(),
    strict_success: z.boolean().describe("goal ∧ process ∧ protection, by majority."),
    trace: z.string().nullable().describe("The episode's trace file, relative to the evaluation folder."),
  })
  .strict();
export type SimulatedEpisode = z.infer<typeof SimulatedEpisode>;

/**
 * `simulated-only.json` of an evaluation: the release's simulated-only tasks, reported apart from
 * the executable tasks of summary.json — run under the simulator and scored by the rubric verifier
 * only (`--env simulated`), or skipped with the reason (never scored by executable checks).
 */
export const SimulatedEvaluation = z
  .object({
    env: z.enum(["executable", "simulated", "hybrid"]).describe("The evaluation's environment mode."),
    skipped: z.array(z.object({ task: z.string(), domain: z.string(), reason: z.string() }).strict()).describe("Selected simulated-only tasks not run, each with why."),
    episodes: z.array(SimulatedEpisode).describe("Episodes run, in (task, condition, run) order."),
    strict_success: z.object({ passed: z.number().int().min(0), completed: z.number().int().min(0), rate: z.number().min(0).max(1).nullable() }).strict().describe("Strict success over completed episodes (errored ones left out)."),
  })
  .strict()
  .describe("Simulated-only tasks of an evaluation, reported apart from executable tasks.");
export type SimulatedEvaluation = z.infer<typeof SimulatedEvaluation>;

/** Artifacts of simulated-only domains, by schema file name. */
export const SIMULATED_ARTIFACTS = {
  "simulated-domain-card": SimulatedDomainCard,
  "simulated-task": SimulatedTask,
  "simulated-verdict": SimulatedVerdict,
  "simulated-report": SimulatedReport,
  "simulated-evaluation": SimulatedEvaluation,
} as const satisfies Record<string, z.ZodType>;
export type SimulatedArtifactName = keyof typeof SIMULATED_ARTIFACTS;
