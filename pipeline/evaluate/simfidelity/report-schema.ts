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
    source: z.string().describe("The trace the call comes from: `golden`, or the spec of the agent whose executable trace it is."),
    domain: z.string().describe("Domain id."),
    task: z.string().describe("Task id."),
    event: z.number().int().min(1).describe("Index of the call in its trace."),
    operation: z.string().describe("Tool called."),
    position: z.number().int().min(1).describe("Ordinal of the call among the simulated calls of its conversation (one trace: source and task; drift is measured over it)."),
    valid: z.boolean().describe("The simulator's answer fitted the declared shape."),
    status_agrees: z.boolean().describe("Its status agrees with the world's."),
    fields: z.number().int().min(0).describe("Leaf fields of the world's result."),
    agreeing: z.number().int().min(0).describe("Fields the simulator gave alike."),
    invented: z.number().int().min(0).describe("Records invented."),
    missing: z.number().int().min(0).describe("Records missing."),
  })
  .strict();
export type FidelityCall = z.infer<typeof FidelityCall>;

/** One agent's strict success under both environments. */
export const RankedAgent = z
  .object({
    agent: z.string().describe("Agent spec."),
    executable: z.number().min(0).max(1).nullable().describe("Strict success rate under --env executable (the evaluator's figure: completed episodes); null when none completed."),
    simulated: z.number().min(0).max(1).nullable().describe("Strict success rate under --env simulated with the simulator measured (rubric verdicts); null when none completed."),
    episodes: z.object({ executable: z.number().int().min(0).describe("Completed executable episodes."), simulated: z.number().int().min(0).describe("Completed simulated episodes.") }).strict().describe("Episodes each rate counts."),
  })
  .strict();
export type RankedAgent = z.infer<typeof RankedAgent>;

/** The order of one pair of agents: which one ranks higher, or a tie. */
export const PairOrder = z.enum(["a", "b", "tie"]);

/** One pair of agents compared under both environments. */
export const RankedPair = z
  .object({
    a: z.string().describe("First agent (earlier in --agents)."),
    b: z.string().describe("Second agent."),
    executable: PairOrder.nullable().describe("Which ranks higher under executable (equal rates: tie); null when a rate is null."),
    simulated: PairOrder.nullable().describe("Which ranks higher under simulated; null when a rate is null."),
    agrees: z.boolean().nullable().describe("Same order under both (a tie agrees only with a tie); null when either order is null (the pair is left out of the figure)."),
  })
  .strict();
export type RankedPair = z.infer<typeof RankedPair>;

/** Whether the agents rank the same under the simulator as under the executable world. */
export const RankingAgreement = z
  .object({
    method: z.string().describe("How the agents were run and pairs compared (ties included)."),
    conditions: z.array(z.string()).describe("Fault conditions of every evaluation."),
    agents: z.array(RankedAgent).describe("Every agent with its rates, in --agents order."),
    pairs: z.array(RankedPair).describe("Every unordered pair, in --agents order."),
    agreement: z.number().min(0).max(1).nullable().describe("Pairwise ranking agreement: agreeing pairs ÷ pairs compared; null when no pair could be compared."),
  })
  .strict();
export type RankingAgreement = z.infer<typeof RankingAgreement>;

/** `synth simfidelity`: the simulator measured against the executable world on teacher-forced golden and agent traces, and the ranking it gives. */
export const SimFidelityReport = z
  .object({
    release: z.object({ name: z.string().describe("Release name."), version: z.string().describe("Release version."), root_hash: z.string().describe("Root hash verified.") }).strict().describe("The release replayed."),
    simulator: z.string().describe("The env-sim model spec measured."),
    method: z.string().describe("How responses were obtained and compared."),
    overall: FidelityFigures.describe("Every simulated call."),
    by_source: z.record(z.string(), FidelityFigures).describe("Trace source (`golden` or an agent spec) → figures."),
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
    ranking: RankingAgreement.describe("The agents ranked under the simulator and under the executable world."),
    calls: z.array(FidelityCall).describe("Every comparison: golden traces in release order, then each agent's traces in --agents order."),
  })
  .strict();
export type SimFidelityReport = z.infer<typeof SimFidelityReport>;
