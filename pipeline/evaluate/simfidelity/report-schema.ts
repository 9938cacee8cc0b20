import { z } from "zod";

/** Agreement figures of a set of simulated responses. */
export const FidelityFigures = z
  .object({
    calls: z.number().int().min(0).describe("Calls the simulator answered."),
    valid: z.number().int().min(0).describe("Of those, answers that fitted the declared shape within the retry budget."),
    status_agreement: z.number().min(0).max(1).nullable().describe("Share of calls whose status (executed, rejected and on which precondition) agrees with the world's; null without calls."),
    fields: z.number().int().min(0).describe("Leaf fields of the world's real results."),
    field_agreement: z.number().min(0).max(1).nullable().describe("Share of those fields the simulator gave with the same value; null without fields."),
    invented: z.number().int().min(0).describe("Records the simulator gave that the world did not."),
    missing: z.number().int().min(0).describe("Records the world gave that the simulator did not."),
  })
  .strict();
export type FidelityFigures = z.infer<typeof FidelityFigures>;

/** One simulated response compared with the world's. */
export const FidelityCall = z
  .object({
    domain: z.string().describe("Domain id."),
    task: z.string().describe("Task id."),
    event: z.number().int().min(1).describe("Index of the call in the golden trace."),
    operation: z.string().describe("Tool called."),
    position: z.number().int().min(1).describe("Ordinal of the call among the simulated calls of its conversation (drift is measured over it)."),
    valid: z.boolean().describe("The simulator's answer fitted the declared shape."),
    status_agrees: z.boolean().describe("Its status agrees with the world's."),
    fields: z.number().int().min(0).describe("Leaf fields of the world's result."),
    agreeing: z.number().int().min(0).describe("Fields the simulator gave alike."),
    invented: z.number().int().min(0).describe("Records invented."),
    missing: z.number().int().min(0).describe("Records missing."),
  })
  .strict();
export type FidelityCall = z.infer<typeof FidelityCall>;

/** `synth simfidelity`: the simulator measured against the executable world on teacher-forced golden traces. */
export const SimFidelityReport = z
  .object({
    release: z.object({ name: z.string().describe("Release name."), version: z.string().describe("Release version."), root_hash: z.string().describe("Root hash verified.") }).strict().describe("The release replayed."),
    simulator: z.string().describe("The env-sim model spec measured."),
    method: z.string().describe("How responses were obtained and compared."),
    overall: FidelityFigures.describe("Every simulated call."),
    by_domain: z.record(z.string(), FidelityFigures).describe("Domain → figures."),
    by_operation: z.record(z.string(), FidelityFigures).describe("`domain/operation` → figures."),
    drift: z
      .object({
        by_position: z.array(z.object({ position: z.number().int().min(1).describe("Ordinal of the call in its conversation."), figures: FidelityFigures.describe("Figures of the calls at that position.") }).strict()).describe("Agreement by position in the conversation."),
        first_half: FidelityFigures.describe("Calls in the first half of their conversation's simulated calls."),
        second_half: FidelityFigures.describe("Calls in the second half."),
        change: z.number().nullable().describe("second_half.field_agreement − first_half.field_agreement (negative: the simulator drifts); null when either is."),
      })
      .strict()
      .describe("State drift over a conversation."),
    calls: z.array(FidelityCall).describe("Every comparison, in release order."),
  })
  .strict();
export type SimFidelityReport = z.infer<typeof SimFidelityReport>;
