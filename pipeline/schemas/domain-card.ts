import { z } from "zod";
import { Slug, IsoDate } from "./provenance.js";

/** The ten industry categories a domain can belong to. */
export const INDUSTRIES = [
  "Business & Enterprise",
  "Commerce",
  "Education & Culture",
  "Healthcare",
  "Industrial & Energy",
  "Transportation & Logistics",
  "Public Service & Governance",
  "Science",
  "Technology",
  "Agriculture & Environment",
] as const;
export const Industry = z.enum(INDUSTRIES).describe("Industry category (one of ten).");

export const GenerationSettings = z
  .object({
    seed: z.number().int().min(0).default(1).describe("Seed of every random stream used to build this domain."),
    task_count: z.number().int().min(1).max(500).default(12).describe("Number of task slots the task designer fills."),
    max_workflows_per_task: z.number().int().min(1).max(12).default(3).describe("Upper bound of workflows combined in one task."),
    repair_attempts: z.number().int().min(0).max(10).default(2).describe("Bounded repair attempts per failing task."),
    epoch: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/, "must be an ISO date-time YYYY-MM-DDTHH:MMZ")
      .default("2026-03-02T09:00Z")
      .describe("Calendar time of logical minute 0 in every episode of this domain (UTC)."),
  })
  .strict()
  .describe("Settings of the generation run for this domain.");

/** Runs of the calibrator's model agent per task when the card says nothing. */
export const DEFAULT_CALIBRATION_RUNS = 4;

export const CalibrationSettings = z
  .object({
    runs: z.number().int().min(1).max(50).default(DEFAULT_CALIBRATION_RUNS).describe("Runs of the calibrator's model agent per task (llm calibrator only): a task solved in 0% or 100% of them is dropped, the solve rate labels the rest."),
  })
  .strict()
  .describe("Settings of the calibrator for this domain.");

/** `sources/<domain>/domain.yaml`: what the domain is and how to generate it. */
export const DomainCard = z
  .object({
    id: Slug.describe("Domain id; equals the folder name under sources/."),
    title: z.string().min(3).describe("Human title of the domain."),
    industry: Industry,
    role: z.string().min(3).describe("The professional role the agent plays, e.g. 'treasury operations officer'."),
    summary: z.string().min(20).describe("Two to five sentences on what the domain covers."),
    customer: z.string().min(3).describe("Who the simulated customer is, e.g. 'a finance manager of a client company'."),
    as_of: IsoDate.describe("Business date the tasks are set on; decides which document versions are in effect."),
    generation: GenerationSettings.default({
      seed: 1,
      task_count: 12,
      max_workflows_per_task: 3,
      repair_attempts: 2,
      epoch: "2026-03-02T09:00Z",
    }),
    // Optional with no default object: a card without it parses (and hashes into sources_hash) as before.
    calibration: CalibrationSettings.optional().describe(`Calibrator settings; absent means \`runs: ${DEFAULT_CALIBRATION_RUNS}\`.`),
  })
  .strict()
  .describe("Domain card: identity, industry, agent role and generation settings of one domain.");
export type DomainCard = z.infer<typeof DomainCard>;
