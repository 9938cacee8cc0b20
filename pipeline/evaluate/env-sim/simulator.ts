import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { z } from "zod";
import type { EnvConfig, EnvTool } from "../../schemas/env-config.js";
import type { Episode } from "../../world/episode.js";
import type { ToolCall, ToolOutcome } from "../../world/types.js";
import type { PlannedFault } from "../../world/fault-plan.js";
import { structuredCall, type StructuredCallOptions } from "../../llm/structured-output.js";
import { answerSchema, type SimAnswer } from "./answer-schema.js";
import type { TraceEvent } from "../../schemas/index.js";
import { callRequest, renderRequest, simulatorSystem } from "./sim-prompt.js";
import { faultRule, simulatedFaultRecord } from "./fault-rules.js";
import { EnvSimFailure } from "./failure.js";

type Model = StructuredCallOptions<z.ZodType>["model"];

const Rendering = z.object({ text: z.string().min(1).describe("The response text as the system shows it.") }).strict().meta({ title: "env_sim_rendering" });

export interface EnvSimulatorOptions {
  /** The env-sim role's chat model for this episode (the runtime's: one retry budget that shows the model each invalid answer). */
  model: Model;
  config: EnvConfig;
  /** The episode answers are recorded into; absent for a simulator that only predicts (synth simfidelity). */
  episode?: Episode;
  /** Ask with the provider's structured output (configuration `structured_output: native`). */
  native: boolean;
}

/**
 * The environment simulator of one episode (role `env-sim`): answers a tool call from the task's
 * environment configuration and the conversation so far (simulated mode), or renders the
 * runtime's answer (hybrid mode). An answer that does not fit the operation's declared result
 * shape is shown its problem and asked again within the runtime's retry budget; one that never
 * fits becomes an errored call in the trace (`simulator_invalid_answer`), never an accepted one.
 * A provider failure after its retries is an EnvSimFailure (the episode errors).
 */
export class EnvSimulator {
  readonly #o: EnvSimulatorOptions;
  readonly #system: string;
  readonly #tools: Map<string, EnvTool>;

  constructor(o: EnvSimulatorOptions) {
    this.#o = o;
    this.#system = simulatorSystem(o.config);
    this.#tools = new Map(o.config.tools.map((t) => [t.name, t]));
  }

  /** The configuration's tool the simulator answers for `name`: an operation, the query tool or wait; null for the others. */
  answers(name: string): EnvTool | null {
    const t = this.#tools.get(name);
    return t && (t.kind === "operation" || t.kind === "query" || t.kind === "wait") ? t : null;
  }

  /**
   * The simulator's answer to `call` after the conversation `events` (not recorded): the checked
   * structured answer, or the last problem when none fitted within the retry budget.
   */
  async predict(call: Pick<ToolCall, "name" | "args">, events: readonly TraceEvent[], fault: PlannedFault | null): Promise<{ ok: true; answer: SimAnswer } | { ok: false; attempts: number; problem: string }> {
    const tool = this.answers(call.name);
    if (!tool) throw new RangeError(`the simulator does not answer ${call.name}`);
    const r = await structuredCall({
      model: this.#o.model,
      schema: answerSchema(tool, fault),
      messages: [new SystemMessage(this.#system), new HumanMessage(callRequest(events, call, tool, fault ? faultRule(fault) : null))],
      name: "env_sim_answer",
      native: this.#o.native,
    });
    if (r.ok) return { ok: true, answer: r.value };
    if (r.error.kind !== "invalid_answer") throw new EnvSimFailure(r.error.kind, `env-sim: ${r.error.failure?.message ?? r.error.message}`);
    return { ok: false, attempts: r.attempts, problem: r.error.message };
  }

  /** Answer and record one agent call (`call` is the operation itself, invoke_capability already unwrapped). */
  async answer(call: ToolCall, fault: PlannedFault | null): Promise<ToolOutcome> {
    const episode = this.#episode();
    const p = await this.predict(call, episode.events, fault);
    let outcome: ToolOutcome;
    if (!p.ok) outcome = { status: "errored", result: { error: { code: "simulator_invalid_answer", message: "the environment simulator gave no valid answer" } }, reason: `simulator_invalid_answer after ${p.attempts} attempt(s): ${p.problem}`, changes: [] };
    else {
      const a = p.answer;
      if (a.status === "rejected") outcome = { status: "rejected", result: { error: { code: "precondition_failed", message: a.message, precondition: a.precondition } }, reason: `${a.precondition}: ${a.message}`, changes: [] };
      else if (a.status === "faulted" && fault) {
        const result = fault.mode === "explicit" ? { error: { code: fault.type, message: a.message } } : a.result;
        outcome = { status: "faulted", result, changes: [], fault: simulatedFaultRecord(fault, a.detail) };
      } else outcome = { status: "executed", result: a.result ?? null, changes: [], ...(a.proposal_id ? { proposal_id: a.proposal_id } : {}) };
    }
    return episode.recordAnswered(call, outcome);
  }

  #episode(): Episode {
    if (!this.#o.episode) throw new RangeError("this simulator has no episode to record into (it only predicts)");
    return this.#o.episode;
  }

  /** Hybrid: the response text of the runtime's outcome recorded as event `index`; null when no valid rendering came (the agent then reads the runtime's own answer). */
  async render(call: ToolCall, outcome: ToolOutcome, index: number): Promise<string | null> {
    const r = await structuredCall({
      model: this.#o.model,
      schema: Rendering,
      messages: [new SystemMessage(this.#system), new HumanMessage(renderRequest(call, outcome.status, outcome.result))],
      name: "env_sim_rendering",
      native: this.#o.native,
    });
    if (!r.ok) {
      if (r.error.kind !== "invalid_answer") throw new EnvSimFailure(r.error.kind, `env-sim: ${r.error.failure?.message ?? r.error.message}`);
      return null;
    }
    this.#episode().recordRendering(index, r.value.text);
    return r.value.text;
  }
}
