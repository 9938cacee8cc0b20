import { z } from "zod";
import { CheckProvenance } from "./provenance.js";

export const CheckGroup = z
  .enum(["goal", "process", "protection"])
  .describe("goal: the requested outcome was reached; process: the way there obeyed the rules; protection: nothing that must stay untouched was touched.");
export type CheckGroup = z.infer<typeof CheckGroup>;

/** One acceptance check: a registered check kind with its parameters and the reason it exists. */
export const AcceptanceCheck = z
  .object({
    id: z.string().min(1).describe("Check id, unique in its task."),
    group: CheckGroup,
    kind: z.string().min(1).describe("Registered check kind (see validation/checks); its parameters are validated by that kind."),
    params: z.record(z.string(), z.unknown()).default({}).describe("Parameters of the check kind."),
    description: z.string().min(1).describe("What the check asserts, in one sentence."),
    provenance: CheckProvenance,
  })
  .strict();
export type AcceptanceCheck = z.infer<typeof AcceptanceCheck>;

/** Result of running one check on one trace: the same shape for every kind. */
export const CheckResult = z
  .object({
    check: z.string().describe("Check id."),
    group: CheckGroup,
    kind: z.string().describe("Check kind."),
    passed: z.boolean().describe("Whether the check passed."),
    reason: z.string().describe("Why, naming the event index or row that decided it."),
    event: z.number().int().nullable().describe("Deciding event index, when one event decided it."),
  })
  .strict();
export type CheckResult = z.infer<typeof CheckResult>;
